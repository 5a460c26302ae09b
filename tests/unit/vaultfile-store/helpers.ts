import type { VaultCounts } from '../../../src/lib/core/api/vault-file';
import { encodeHlc } from '../../../src/lib/core/vaultfile/hlc';
import { SECTION_NAMES, type SectionName, type SectionRecords, type VaultState } from '../../../src/lib/core/vaultfile/sections';
import { exportVault, type VaultExportOptions } from '../../../src/lib/store/vaultfile-export';
import { openVault, type Vault } from '../../../src/lib/store/vault';
import { tableOf } from '../../../src/lib/store/vaultfile-tables';
import { conversation, message, note } from '../../factories/records';
import { fastTestKdf, MIN_ARGON2ID } from '../../factories/vault-crypto';
import { collectBytes, streamOf } from '../../factories/vault-state';

let counter = 0;

/** A fresh vault (its own fake-indexeddb database) opened through the product's `openVault`. */
export function openTestVault(): Promise<Vault> {
  counter += 1;
  return openVault(`vf-store-${process.pid}-${counter}-${Date.now()}`);
}

export async function closeVault(vault: Vault): Promise<void> {
  vault.db.close();
  await vault.db.delete();
}

export const stampAt = (wall: number, node = 'dev', counter = 0) => encodeHlc({ wall: 1_700_000_000_000 + wall, counter, node });

/** Writes a state's records straight into the tables (what a device holds, as test input). */
export async function putState(vault: Vault, state: Partial<VaultState>): Promise<void> {
  for (const section of SECTION_NAMES) {
    const rows = state[section];
    if (rows?.length) await tableOf(vault.db, section).bulkPut(rows as SectionRecords[SectionName][]);
  }
}

/** Every row of every table, device settings and jobs included: "the vault is exactly as before". */
export async function rawDump(vault: Vault): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  for (const table of vault.db.tables) dump[table.name] = await table.toArray();
  return dump;
}

export const fastEncryption = (passphrase: string) => ({ passphrase, kdf: MIN_ARGON2ID, deriveKey: fastTestKdf });

/** Exports a vault to bytes (tests: small vaults) and records the export. */
export async function exportBytes(
  vault: Vault,
  options: Partial<VaultExportOptions> = {},
): Promise<{ bytes: Uint8Array; counts: VaultCounts; exportedAt: number }> {
  const result = await exportVault(vault, { vectors: true, appVersion: '0.1.0-test', ...options });
  const bytes = await collectBytes(result.stream);
  await result.recordDone();
  return { bytes, counts: result.counts, exportedAt: result.meta.exportedAt };
}

export const fileStream = (bytes: Uint8Array, pieces: number[] = [4096]) => streamOf(bytes, pieces);

export { fastTestKdf };

/**
 * A vault holding every kind of row, written partly through the product's own paths (notes saved
 * and deleted through the repositories): the sample state with hard text, plus what an export must
 * leave out (rows of an unfinished import, this device's settings, a job).
 */
export async function seedRichVault(vault: Vault, state: VaultState): Promise<void> {
  await putState(vault, state);
  await vault.db.conversations.put({ ...conversation({ id: 'conv-staged', importId: 'imp_x/0', state: 'staged', hlc: stampAt(50) }) });
  await vault.db.messages.put({
    ...message({ id: 'msg-staged', conversationId: 'conv-staged', importId: 'imp_x/0', state: 'staged', hlc: stampAt(51) }),
  });
  await vault.settings.set('jobs.paused', true);
  await vault.jobs.enqueue({ type: 'vault.verify-hashes', payload: {} }, 1_700_000_000_000);
  const at = 1_700_000_000_000;
  await vault.notes.save(note({ id: 'note-saved', text: 'Saved through NotesRepo.' }), {
    actor: 'user',
    action: 'create',
    why: 'typed',
    at,
  });
  await vault.notes.save(note({ id: 'note-doomed', text: 'Deleted through deleteRecords.' }), {
    actor: 'user',
    action: 'create',
    why: 'typed',
    at,
  });
  await vault.deleteRecords('notes', ['note-doomed']);
}
