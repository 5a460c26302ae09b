/**
 * Where `engram recall` reads its memories from. Today: export files imported into a fresh
 * in-memory vault. The seam for the vault file: a `{ kind: 'vault-file', path }` source opens the
 * stored vault instead (the vault-file work adds that branch to `openRecallSource`; everything after
 * it, units, engine and package, stays the same).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ImportReport } from '../../lib/core/import/report';
import { runImport, type ImportInput } from '../../lib/store/importer';
import { openVault, type Vault } from '../../lib/store/vault';
import { UsageError } from '../command';
import { expandPaths } from '../commands/import';

export type RecallSource = { kind: 'exports'; paths: string[] } | { kind: 'vault-file'; path: string };

export interface OpenedSource {
  vault: Vault;
  /** The import report when the source was export files. */
  report: ImportReport | null;
  /** Deletes an in-memory vault (a stored vault is only closed). */
  close(): Promise<void>;
}

/** Files streamed in 1 MiB pieces, as `engram import` reads them. */
async function inputsFor(paths: readonly string[]): Promise<ImportInput[]> {
  return Promise.all(
    paths.map(async (path) => ({
      name: path,
      size: (await stat(path)).size,
      bytes: Readable.toWeb(createReadStream(path, { highWaterMark: 1024 * 1024 })) as ReadableStream<Uint8Array>,
    })),
  );
}

export async function openRecallSource(source: RecallSource): Promise<OpenedSource> {
  if (source.kind === 'vault-file') {
    throw new UsageError('--vault is not available yet: name the export files to recall from.');
  }
  const files = await expandPaths(source.paths);
  const vault = await openVault(`cli-recall-${process.pid}-${Date.now()}`);
  try {
    const report = await runImport(vault, await inputsFor(files));
    return { vault, report, close: () => vault.db.delete() };
  } catch (thrown) {
    await vault.db.delete();
    throw thrown;
  }
}
