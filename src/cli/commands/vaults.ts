import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isVaultError } from '../../lib/core/errors';
import { readVault } from '../../lib/core/vaultfile/reader';
import { UsageError, type Command } from '../command';
import { stemOf } from '../mcp/file-vaults';
import { parseCommandArgs } from '../recall/args';
import { fileStream, isEncryptedFile, passphraseFromEnv } from './vault-file';

export interface VaultFileListing {
  file: string;
  /** The vault's name as the app calls it (its `vault.name` setting), else the file's stem. */
  name: string;
  named: boolean;
  encrypted: boolean;
  /** Null for an encrypted file read without its passphrase, or a file that could not be read. */
  counts: { conversations: number; messages: number; notes: number; kept: number; inbox: number } | null;
  exportedAt: string | null;
  error: string | null;
}

/** Reads one vault file to the end (the name sits in its settings section, near the end). */
export async function listVaultFile(path: string, passphrase: string | null): Promise<VaultFileListing> {
  const encrypted = await isEncryptedFile(path);
  const listing: VaultFileListing = {
    file: path,
    name: stemOf(path),
    named: false,
    encrypted,
    counts: null,
    exportedAt: null,
    error: null,
  };
  if (encrypted && passphrase === null) {
    listing.error = 'encrypted: name the passphrase with --passphrase-env VAR to read its name and counts';
    return listing;
  }
  const counts = { conversations: 0, messages: 0, notes: 0, kept: 0, inbox: 0 };
  try {
    for await (const event of readVault(fileStream(path), { passphrase: passphrase ?? undefined })) {
      if (event.kind === 'manifest') {
        listing.exportedAt = new Date(event.manifest.exportedAt).toISOString();
        counts.conversations = event.manifest.counts.conversations ?? 0;
        counts.notes = event.manifest.counts.notes ?? 0;
      } else if (event.kind === 'records' && event.section === 'messages') {
        counts.messages += event.records.filter((m) => m.state === 'visible').length;
      } else if (event.kind === 'records' && event.section === 'notes') {
        for (const note of event.records) {
          if (note.status === 'kept') counts.kept++;
          else if (note.status === 'provisional' && note.tier === 'engram') counts.inbox++;
        }
      } else if (event.kind === 'records' && event.section === 'settings') {
        const name = event.records.find((s) => s.key === 'vault.name')?.value;
        if (typeof name === 'string' && name.trim() !== '') {
          listing.name = name;
          listing.named = true;
        }
      }
    }
    listing.counts = counts;
  } catch (thrown) {
    listing.error = isVaultError(thrown) ? thrown.message : String(thrown);
  }
  return listing;
}

function table(rows: VaultFileListing[]): string {
  if (rows.length === 0) return 'No vault files (*.engram) in that folder.';
  const cells = rows.map((r) => [
    r.name,
    r.counts ? String(r.counts.conversations) : '-',
    r.counts ? String(r.counts.messages) : '-',
    r.counts ? String(r.counts.kept) : '-',
    r.counts ? String(r.counts.inbox) : '-',
    r.encrypted ? 'yes' : 'no',
    r.file,
    r.error ?? '',
  ]);
  const head = ['vault', 'conversations', 'messages', 'kept notes', 'inbox', 'encrypted', 'file', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), ...cells.map(line)].join('\n');
}

/** `engram vaults FOLDER`: the vault files in a folder (a sync folder, say), with their names and counts. */
export const vaultsCommand: Command = {
  name: 'vaults',
  summary: 'List the vault files (*.engram) in a folder with their names and counts.',
  usage: 'vaults [FOLDER] [--passphrase-env VAR] [--json]   (FOLDER defaults to the current folder)',
  async run(argv) {
    const { values, positionals } = parseCommandArgs(argv, { 'passphrase-env': { type: 'string' } });
    if (positionals.length > 1) throw new UsageError('Name one folder.');
    const folder = positionals[0] ?? '.';
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => {
      throw new UsageError(`${folder} is not a folder that can be read.`);
    });
    const passphrase = passphraseFromEnv(values['passphrase-env']);
    const files = entries
      .filter((e) => e.isFile() && e.name.endsWith('.engram'))
      .map((e) => join(folder, e.name))
      .sort();
    const rows: VaultFileListing[] = [];
    for (const file of files) rows.push(await listVaultFile(file, passphrase));
    return { json: { folder, vaults: rows }, text: table(rows) };
  },
};
