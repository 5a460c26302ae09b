import type { Table } from 'dexie';
import type { StoredSummary } from '../core/api/extract-api';
import type { RestoreReport, VaultCounts, VaultFileProgressFn } from '../core/api/vault-file';
import type { DeriveKeyFn } from '../core/vaultfile/kdf';
import type { SectionRecords } from '../core/vaultfile/sections';
import { isDeviceSetting } from './settings-repo';
import type { TxOptions } from './transaction';
import type { Vault } from './vault';
import { settingAsSummary } from './summaries-repo';
import { boundCheckpointTables, CheckpointWriter, LOGGED_TABLES, type RowKey } from './checkpoints';
import { blockMessageIds, boundMessageTables, detachFromBlocks, getMessages } from './messages-store';
import type { MessageBlockRecord } from '../core/records';
import { boundTables, eachSpooledPage, queueReindex, runCommit } from './vaultfile-commit';
import { PhaseProgress, throwIfCancelled } from './vaultfile-progress';
import { recordRestamped, restampPolicy } from './vaultfile-drift';
import { fileInfo, stageVaultFile, type StagedFile } from './vaultfile-stage';
import { emptyCounts, primaryKeyOf, totalOf, vaultCounts, type AnyRecord } from './vaultfile-tables';

/**
 * Restore: the vault becomes exactly the file's contents (this device's own settings and its job
 * queue stay). Atomic in two steps:
 *
 * 1. stage: the file is read and verified into a Spool (vaultfile-stage.ts). A damaged or
 *    tampered file, a wrong passphrase or a cancel fails here, before the vault is touched.
 * 2. commit: only after the reader's `end`, one read-write transaction makes every vault-file
 *    table hold exactly the staged records (vaultfile-commit.ts): rows that differ are written,
 *    rows the file lacks deleted, each replaced row logged in a checkpoint first
 *    (store/checkpoints.ts), so the restore can be rolled back; the index's chunks and vectors are
 *    replaced whole. Until it commits, every reader sees the old vault; if it fails or is
 *    cancelled, IndexedDB rolls all of it back.
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

/** Sections whose rows a restore diffs against the vault and logs in its checkpoint; chunks and vectors are derived and replaced whole. */
const DIFFED: ReadonlySet<string> = new Set(LOGGED_TABLES);

async function commitRestore(vault: Vault, staged: StagedFile, options: RestoreOptions): Promise<VaultCounts> {
  const { db } = vault;
  const { manifest, spool } = staged;
  const records = totalOf(manifest.counts);
  const now = options.now ?? Date.now;
  return runCommit(
    db,
    records,
    async () => {
      const tables = boundTables();
      const byName = tables as unknown as (name: string) => Table<unknown, unknown>;
      const writer = await CheckpointWriter.open(boundCheckpointTables(), {
        reason: 'restore',
        label: 'Before restoring a vault file',
        now: now(),
      });
      const restored = emptyCounts();
      const progress = new PhaseProgress(options.onProgress, 'committing', records);
      await tables('chunks').clear();
      await tables('vectors').clear();
      const seen = new Map<string, Set<string>>();
      const messages = boundMessageTables();
      const logBlocks = async (blocks: readonly MessageBlockRecord[]) => {
        for (const block of blocks) await writer.log('messageBlocks', block.id, block);
      };
      /** Writes the rows that differ from the vault's (logging what they replace) and remembers every key. */
      const write = async (name: string, rows: readonly AnyRecord[], keyOf: (row: AnyRecord) => RowKey) => {
        const table = byName(name);
        const keys = rows.map(keyOf);
        const known = seen.get(name) ?? new Set<string>();
        seen.set(name, known);
        for (const key of keys) known.add(JSON.stringify(key));
        if (!DIFFED.has(name)) return void (await table.bulkPut(rows as unknown[]));
        const current = name === 'messages' ? await getMessages(messages, keys as string[]) : await table.bulkGet(keys as unknown[]);
        const changed = rows.filter((row, i) => JSON.stringify(current[i]) !== JSON.stringify(row));
        // A changed message stored in a block leaves it (the block logged as it was) and becomes a row.
        if (name === 'messages') await detachFromBlocks(messages, changed.map(keyOf) as string[], logBlocks);
        await writer.logRows(table, name, changed.map(keyOf));
        if (changed.length > 0) await table.bulkPut(changed as unknown[]);
      };
      for (const section of manifest.sections) {
        await eachSpooledPage(tables, spool, section, async (page) => {
          throwIfCancelled(options.signal, 'restore');
          let rows: AnyRecord[] =
            section === 'settings' ? page.filter((row) => !isDeviceSetting((row as SectionRecords['settings']).key)) : page;
          if (section === 'settings') {
            const summaries = (rows as SectionRecords['settings'][]).map(settingAsSummary);
            await write(
              'summaries',
              summaries.filter((s) => s !== null) as unknown as AnyRecord[],
              (row) => (row as unknown as StoredSummary).conversationId,
            );
            rows = rows.filter((_, i) => summaries[i] === null);
            restored.settings += summaries.length - rows.length;
          }
          await write(section, rows, (row) => primaryKeyOf(section, row));
          restored[section] += rows.length;
          progress.add(page.length);
        });
      }
      // The manifest names the vault; a file whose settings lack the id still restores under it.
      for (const [key, value] of [
        ['vault.id', manifest.vaultId],
        ['vault.createdAt', manifest.createdAt],
      ] as const) {
        if (seen.get('settings')?.has(JSON.stringify(key))) continue;
        await write('settings', [{ key, value }], (row) => (row as SectionRecords['settings']).key);
        restored.settings++;
      }
      // What the vault held and the file does not: gone (logged first). This device's settings stay.
      for (const name of ['conversations', 'messages', 'notes', 'history', 'imports', 'settings', 'tombstones', 'summaries'] as const) {
        const known = seen.get(name) ?? new Set<string>();
        const table = byName(name);
        const keys = ((await table.toCollection().primaryKeys()) as RowKey[]).filter(
          (key) => !known.has(JSON.stringify(key)) && !(name === 'settings' && isDeviceSetting(key as string)),
        );
        await writer.logRows(table, name, keys);
        if (keys.length > 0) await table.bulkDelete(keys as unknown[]);
        if (name === 'messages') {
          const inBlocks = (await blockMessageIds(messages)).filter((id) => !known.has(JSON.stringify(id)));
          await detachFromBlocks(messages, inBlocks, logBlocks);
        }
      }
      await writer.finish();
      progress.finish();
      return restored;
    },
    { label: 'replacing the vault with the file', tx: options.tx },
  );
}
