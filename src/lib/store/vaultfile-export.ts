import type { VaultCounts, VaultFileMark, VaultFileProgressFn } from '../core/api/vault-file';
import type { VaultExportMeta } from '../core/vaultfile/format';
import { compareHlc } from '../core/vaultfile/hlc';
import { REQUIRED_SECTIONS, isStampedSection, type SectionName, type SectionRecords } from '../core/vaultfile/sections';
import { writeVault, type EncryptOptions, type SectionSource, type VaultSections, type WriteVaultOptions } from '../core/vaultfile/writer';
import { newId } from '../core/ids';
import { boundMessageTables, countStoredMessages, messagePage, messageTables, type MessageScanPosition } from './messages-store';
import { runTx, type TxOptions } from './transaction';
import type { Vault } from './vault';
import { PhaseProgress, throwIfCancelled } from './vaultfile-progress';
import { addToVector, SEEN_PREFIX, type DeviceSeen, type VersionVector } from '../core/curate/retention';
import { summaryAsSetting } from './summaries-repo';
import { Spool } from './vaultfile-spool';
import {
  emptyCounts,
  isExportable,
  PAGE_ROWS,
  primaryKeyOf,
  stagedConversationIds,
  tableOf,
  totalOf,
  type AnyRecord,
} from './vaultfile-tables';

/**
 * Export: the vault as a `.engram` stream.
 *
 * Consistency. The manifest states every section's count before the first record, so the export
 * needs a snapshot: the rows are read in ONE read-only IndexedDB transaction (a consistent view,
 * however busy the job queue is), page by page (`PAGE_ROWS` per `getAll`), into a Spool (Blobs,
 * off the JS heap). The transaction holds only IndexedDB reads, so it ends as soon as the rows are
 * read; the slow part (encoding, hashing, encryption, the destination) then streams from the
 * spool. Rows exported: see vaultfile-tables.ts (visible rows, no device settings, vectors only
 * when asked).
 *
 * The export counts as "done" only when its destination has the whole file: the caller calls
 * `recordDone()` then, which records `vault.lastExportAt` and the mark "changed since" compares
 * against (vaultfile-status.ts).
 */

export interface VaultExportOptions {
  vectors: boolean;
  appVersion: string;
  encryption?: EncryptOptions;
  random?: WriteVaultOptions['random'];
  now?: () => number;
  signal?: AbortSignal;
  onProgress?: VaultFileProgressFn;
  tx?: TxOptions;
}

export interface VaultExport {
  stream: ReadableStream<Uint8Array>;
  meta: VaultExportMeta;
  counts: VaultCounts;
  records: number;
  encrypted: boolean;
  /** Whether the file has a vectors section. */
  vectors: boolean;
  mark: VaultFileMark;
  recordDone(): Promise<void>;
}

/** A snapshot may take long on a large vault; the timeout only catches a stuck disk. */
const SNAPSHOT_TIMEOUT_MS = 10 * 60_000;

export interface VaultSnapshot {
  spool: Spool;
  counts: VaultCounts;
  maxHlc: string | null;
}

/** Reads every exportable row of `sections` in one read-only transaction into a spool. */
export async function snapshotVault(
  vault: Vault,
  sections: readonly SectionName[],
  options: {
    signal?: AbortSignal;
    onProgress?: VaultFileProgressFn;
    tx?: TxOptions;
    /** Adds this device's version vector as a settings line (exports: retention reads it on other devices). */
    seenBy?: { deviceId: string };
  } = {},
): Promise<VaultSnapshot> {
  const { db } = vault;
  const spool = new Spool();
  const counts = emptyCounts();
  const vector: VersionVector = {};
  let maxHlc: string | null = null;
  await runTx(
    db,
    'r',
    [
      ...[...new Set([...sections, 'conversations' as const])].map((section) => tableOf(db, section)),
      ...(sections.includes('messages') ? messageTables(db) : []),
      db.summaries,
    ],
    async () => {
      const staged = await stagedConversationIds(db);
      // Tombstones come after settings in the file: their stamps are read first, for the vector.
      if (options.seenBy) for (const hlc of await db.tombstones.orderBy('hlc').keys()) addToVector(vector, String(hlc));
      let total = 0;
      for (const section of sections) total += section === 'messages' ? await countStoredMessages(db) : await tableOf(db, section).count();
      const progress = new PhaseProgress(options.onProgress, 'reading-vault', total);
      for (const section of sections) {
        await eachStoredPage(db, section, (page) => {
          throwIfCancelled(options.signal, 'export');
          const kept = page.filter((row) => isExportable(section, row, staged));
          if (isStampedSection(section) || section === 'tombstones') {
            for (const row of kept) {
              const hlc = (row as { hlc: string }).hlc;
              if (maxHlc === null || compareHlc(hlc, maxHlc) > 0) maxHlc = hlc;
              addToVector(vector, hlc);
            }
          }
          spool.append(section, kept as SectionRecords[typeof section][]);
          counts[section] += kept.length;
          progress.add(page.length);
        });
        // Session summaries travel as the settings lines they were before schema version 2.
        if (section === 'settings') {
          const summaries = (await db.summaries.toArray()).map(summaryAsSetting);
          spool.append('settings', summaries);
          counts.settings += summaries.length;
          // Stable while nothing changes (no export time, the latest stamp as its own): merging the
          // same vault's files again finds nothing new.
          if (options.seenBy && maxHlc !== null) {
            const seen: DeviceSeen = { deviceId: options.seenBy.deviceId, vector };
            spool.append('settings', [{ key: `${SEEN_PREFIX}${seen.deviceId}`, value: seen, hlc: maxHlc }]);
            counts.settings += 1;
          }
        }
      }
      progress.finish();
    },
    { ...options.tx, timeoutMs: options.tx?.timeoutMs ?? SNAPSHOT_TIMEOUT_MS, label: 'reading the vault for export' },
  );
  return { spool, counts, maxHlc };
}

/**
 * Calls `fn` with every stored row of a section, page by page (messages from their rows and
 * blocks, read through the transaction's own tables). Inside the snapshot's transaction.
 */
async function eachStoredPage(db: Vault['db'], section: SectionName, fn: (page: AnyRecord[]) => void): Promise<void> {
  if (section === 'messages') {
    // One async layer only, inside the snapshot's transaction: not `scanMessages`.
    const tables = boundMessageTables();
    for (let position: MessageScanPosition | null = null; ;) {
      const page = await messagePage(tables, position, PAGE_ROWS);
      if (page.next === null) return;
      position = page.next;
      fn(page.messages);
    }
  }
  const table = tableOf(db, section);
  let after: unknown = undefined;
  for (;;) {
    const page: AnyRecord[] =
      after === undefined
        ? await table.orderBy(':id').limit(PAGE_ROWS).toArray()
        : await table.where(':id').above(after).limit(PAGE_ROWS).toArray();
    if (page.length === 0) return;
    after = primaryKeyOf(section, page[page.length - 1]!);
    fn(page);
  }
}

/** The vault's id and creation time, created on first need (an exported vault must have an id). */
export async function ensureVaultIdentity(vault: Vault, now: number): Promise<{ vaultId: string; createdAt: number }> {
  let vaultId = await vault.settings.get('vault.id');
  let createdAt = await vault.settings.get('vault.createdAt');
  if (!vaultId) {
    vaultId = newId('vault');
    await vault.settings.set('vault.id', vaultId);
  }
  if (createdAt === null) {
    createdAt = (await vault.settings.get('vault.firstImportAt')) ?? now;
    await vault.settings.set('vault.createdAt', createdAt);
  }
  return { vaultId, createdAt };
}

export async function exportVault(vault: Vault, options: VaultExportOptions): Promise<VaultExport> {
  const now = options.now ?? Date.now;
  const identity = await ensureVaultIdentity(vault, now());
  const names: SectionName[] = [...REQUIRED_SECTIONS, ...(options.vectors ? (['vectors'] as const) : [])];
  const deviceId = await vault.settings.get('vault.deviceId');
  const snapshot = await snapshotVault(vault, names, { ...options, ...(deviceId ? { seenBy: { deviceId } } : {}) });
  const meta: VaultExportMeta = {
    ...identity,
    exportedAt: now(),
    appVersion: options.appVersion,
    embeddingModelId: await vault.settings.get('embedding.modelId'),
  };
  const records = totalOf(snapshot.counts);
  const progress = new PhaseProgress(options.onProgress, 'writing-file', records);
  const source = <K extends SectionName>(section: K): SectionSource<SectionRecords[K]> => ({
    count: snapshot.counts[section],
    records: (async function* () {
      for await (const page of snapshot.spool.pages(section)) {
        throwIfCancelled(options.signal, 'export');
        yield* page;
        progress.add(page.length);
      }
      if (section === names[names.length - 1]) progress.finish();
    })(),
  });
  const sections = Object.fromEntries(names.map((name) => [name, source(name)])) as unknown as VaultSections;
  const stream = writeVault(meta, sections, { encryption: options.encryption, random: options.random });
  const mark: VaultFileMark = { at: meta.exportedAt, hlc: snapshot.maxHlc, counts: snapshot.counts };
  return {
    stream,
    meta,
    counts: snapshot.counts,
    records,
    encrypted: options.encryption !== undefined,
    vectors: options.vectors,
    mark,
    async recordDone() {
      await vault.settings.set('vault.lastExportAt', meta.exportedAt);
      await vault.settings.set('vault.exportMark', mark);
    },
  };
}
