/**
 * Vault names: what a person may call a vault, and the file-name slug derived from it. Names are
 * unique case-insensitively (after trimming and collapsing spaces), so "Work" and "work " are one
 * name, and so are their slugs: two vaults never share a sync file name.
 */
import { MAX_VAULT_NAME } from '../api/vaults';
import { err, ok, vaultError, type Result } from '../errors';

export function normalizeVaultName(name: string): string {
  return name.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** A slug of letters, digits and hyphens (lower case); 'vault' when nothing is left. */
export function vaultSlug(name: string): string {
  const slug = normalizeVaultName(name)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-+|-+$/gu, '')
    .slice(0, 32)
    .replace(/-+$/u, '');
  return slug || 'vault';
}

/** The name as it will be stored, or why it cannot be: empty, too long, control characters, taken. */
export function checkVaultName(
  name: string,
  others: readonly { name: string; syncFileName: string }[],
  options: { newVault: boolean },
): Result<string> {
  const clean = normalizeVaultName(name);
  if (clean === '') return err(vaultError('vaults/invalid-name', 'Give the vault a name.'));
  if ([...clean].length > MAX_VAULT_NAME)
    return err(vaultError('vaults/invalid-name', `A vault name has at most ${MAX_VAULT_NAME} characters.`));
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/u.test(clean)) return err(vaultError('vaults/invalid-name', 'A vault name cannot hold control characters.'));
  const lower = clean.toLocaleLowerCase('en');
  if (others.some((o) => normalizeVaultName(o.name).toLocaleLowerCase('en') === lower))
    return err(vaultError('vaults/invalid-name', `There is already a vault called "${clean}".`));
  if (options.newVault && others.some((o) => o.syncFileName === syncFileNameFor(clean)))
    return err(vaultError('vaults/invalid-name', `"${clean}" is too close to the name of another vault; choose another name.`));
  return ok(clean);
}

/** The sync-folder file of a new vault named `name`. */
export function syncFileNameFor(name: string): string {
  return `engram-vault-${vaultSlug(name)}.engram`;
}
