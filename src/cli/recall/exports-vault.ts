/**
 * One vault of the real chat-export samples (../shared/data/exports: one folder per provider), every
 * JSON file imported through the product's importer as `engram import` reads files. The golden
 * queries (tests/unit/recall/golden-exports.test.ts) and `eval offtopic` ask this vault.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { vaultError, VaultFailure } from '../../lib/core/errors';
import type { ImportReport } from '../../lib/core/import/report';
import type { OfftopicVault } from '../../lib/services/eval/offtopic';
import { runImport } from '../../lib/store/importer';
import { openVault, type Vault } from '../../lib/store/vault';
import { expandPaths, inputsFor } from '../commands/import';

/** The JSON files under `dir` and its provider folders, sorted. */
export async function exportFiles(dir: string): Promise<string[]> {
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) {
    throw new VaultFailure(vaultError('input/invalid', `Cannot read ${dir}: the chat-export samples live in ../shared/data/exports/.`));
  }
  const entries = await readdir(dir, { withFileTypes: true });
  const paths = entries.filter((e) => e.isDirectory() || e.isFile()).map((e) => join(dir, e.name));
  const files = (await expandPaths(paths.sort())).filter((f) => f.endsWith('.json'));
  if (files.length === 0) throw new VaultFailure(vaultError('input/invalid', `${dir} holds no .json chat export.`));
  return files;
}

let vaults = 0;

/** A fresh vault holding every export file under `dir`. Delete `vault.db` when done. */
export async function importExports(dir: string): Promise<{ vault: Vault; report: ImportReport }> {
  const files = await exportFiles(dir);
  const vault = await openVault(`exports-${process.pid}-${++vaults}`);
  const report = await runImport(vault, await inputsFor(files));
  if (report.totals.conversations.stored === 0) {
    await vault.db.delete();
    throw new VaultFailure(vaultError('input/invalid', `No conversation of ${dir} imported (${report.status}).`));
  }
  return { vault, report };
}

/** The exports vault as `eval offtopic` asks it, named "exports" (the folder is checked now, imported when asked). */
export async function exportsVault(dir: string): Promise<OfftopicVault> {
  await exportFiles(dir);
  return { name: 'exports', open: async () => (await importExports(dir)).vault };
}
