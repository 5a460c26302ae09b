import type { RestoreReport, VaultCounts, VaultFileProgressFn } from '../core/api/vault-file';
import type { DeriveKeyFn } from '../core/vaultfile/kdf';
import type { SectionRecords } from '../core/vaultfile/sections';
import { isDeviceSetting } from './settings-repo';
import type { TxOptions } from './transaction';
import type { Vault } from './vault';
import { boundTables, eachSpooledPage, queueReindex, runCommit } from './vaultfile-commit';
import { PhaseProgress, throwIfCancelled } from './vaultfile-progress';
import { recordRestamped, restampPolicy } from './vaultfile-drift';
import { fileInfo, stageVaultFile, type StagedFile } from './vaultfile-stage';
import { emptyCounts, totalOf, vaultCounts } from './vaultfile-tables';

/**
 * Restore: the vault becomes exactly the file's contents (this device's own settings and its job
 * queue stay). Atomic in two steps:
 *
 * 1. stage: the file is read and verified into a Spool (vaultfile-stage.ts). A damaged or
 *    tampered file, a wrong passphrase or a cancel fails here, before the vault is touched.
 * 2. commit: only after the reader's `end`, one read-write transaction clears every vault-file
 *    table and writes the staged records (vaultfile-commit.ts). Until it commits, every reader
 *    sees the old vault; if it fails or is cancelled, IndexedDB rolls all of it back.
 *
 * Afterwards: this context's clock observes the file's latest stamp, the search indexes are queued
 * for a rebuild (`index.rebuild`), and the file counts as backed up (its mark is recorded, so the
 * reminder does not ask to export what was just restored).
 */

export interface RestoreOptions {
  passphrase?: string;
  deriveKey?: DeriveKeyFn;
  signal?: AbortSignal;
  onProgress?: VaultFileProgressFn;
  now?: () => number;
  tx?: TxOptions;
}

export async function restoreVault(vault: Vault, stream: ReadableStream<Uint8Array>, options: RestoreOptions = {}): Promise<RestoreReport> {
  const now = options.now ?? Date.now;
  const replaced = await vaultCounts(vault.db, options.tx);
  const staged = await stageVaultFile(stream, { ...options, operation: 'restore', restamp: await restampPolicy(vault, now()) });
  let restored: VaultCounts;
  try {
    restored = await commitRestore(vault, staged, options);
  } finally {
    staged.spool.clear();
  }
  if (staged.maxHlc) vault.clock.observe(staged.maxHlc);
  const notes = await recordRestamped(vault, staged.restamped);
  await queueReindex(vault, 'vault-restore', now());
  await vault.settings.set('vault.exportMark', { at: staged.manifest.exportedAt, hlc: staged.maxHlc, counts: restored });
  return {
    mode: 'restore',
    file: fileInfo(staged),
    replaced,
    restored,
    skippedStaged: staged.skippedStaged,
    restamped: staged.restamped.size,
    notes,
  };
}

async function commitRestore(vault: Vault, staged: StagedFile, options: RestoreOptions): Promise<VaultCounts> {
  const { db } = vault;
  const { manifest, spool } = staged;
  const records = totalOf(manifest.counts);
  return runCommit(
    db,
    records,
    async () => {
      const tables = boundTables();
      const restored = emptyCounts();
      const progress = new PhaseProgress(options.onProgress, 'committing', records);
      for (const section of ['conversations', 'messages', 'notes', 'chunks', 'history', 'imports', 'tombstones', 'vectors'] as const) {
        await tables(section).clear();
      }
      const keys = (await tables('settings').toCollection().primaryKeys()) as string[];
      const vaultSettings = keys.filter((key) => !isDeviceSetting(key));
      await tables('settings').bulkDelete(vaultSettings);
      for (const section of manifest.sections) {
        await eachSpooledPage(tables, spool, section, async (page) => {
          throwIfCancelled(options.signal, 'restore');
          const rows = section === 'settings' ? page.filter((row) => !isDeviceSetting((row as SectionRecords['settings']).key)) : page;
          await tables(section).bulkPut(rows);
          restored[section] += rows.length;
          progress.add(page.length);
        });
      }
      // The manifest names the vault; a file whose settings lack the id still restores under it.
      if (!(await tables('settings').get('vault.id'))) {
        await tables('settings').put({ key: 'vault.id', value: manifest.vaultId });
        restored.settings++;
      }
      if (!(await tables('settings').get('vault.createdAt'))) {
        await tables('settings').put({ key: 'vault.createdAt', value: manifest.createdAt });
        restored.settings++;
      }
      progress.finish();
      return restored;
    },
    { label: 'replacing the vault with the file', tx: options.tx },
  );
}
