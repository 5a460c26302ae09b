/**
 * Where `engram recall` reads its memories from: export files imported into a fresh in-memory
 * vault, or a stored vault file restored into one (the same restore path as the browser's).
 * Everything after it (units, engine, package) is the same.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ImportReport } from '../../lib/core/import/report';
import { runImport, type ImportInput } from '../../lib/store/importer';
import { openVault, type Vault } from '../../lib/store/vault';
import { UsageError } from '../command';
import { expandPaths } from '../commands/import';
import { closeScratchVault, exists, loadVaultFile, openScratchVault } from '../commands/vault-file';

export type RecallSource = { kind: 'exports'; paths: string[] } | { kind: 'vault-file'; path: string; passphrase: string | null };

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
    if (!(await exists(source.path))) throw new UsageError(`${source.path} does not exist.`);
    const vault = await openScratchVault();
    try {
      await loadVaultFile(vault, source.path, source.passphrase);
      return { vault, report: null, close: () => closeScratchVault(vault) };
    } catch (thrown) {
      await closeScratchVault(vault);
      throw thrown;
    }
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
