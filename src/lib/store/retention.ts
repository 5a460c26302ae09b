import type { IndexableType, Table } from 'dexie';
import type { RetentionReport } from '../core/api/curate-api';
import {
  addToVector,
  historyBeyondCap,
  RETENTION,
  SEEN_PREFIX,
  tombstoneVerdict,
  type DeviceSeen,
  type VersionVector,
} from '../core/curate/retention';
import type { TombstoneRecord } from '../core/records';
import { STAMPED_SECTIONS } from '../core/vaultfile/sections';
import { MAX_CHECKPOINTS } from './checkpoints';
import { readAhead } from './paging';
import { runTx, withStoreTimeout } from './transaction';
import type { Vault } from './vault';
import { scanMessages } from './messages-store';
import { primaryKeyOf, tableOf, type AnyRecord } from './vaultfile-tables';

/**
 * The retention job's work on the store (rules: core/curate/retention.ts): finished jobs older than
 * a week, tombstones every known device has merged (or older than 90 days once exported), note
 * history beyond the per-note cap, checkpoints beyond the newest 20 with their logs, and decided
 * proposals past their time. Each part is its own bounded transaction; `between` lets the job yield
 * and stop between parts.
 */
const PAGE = 5_000;
const DELETE_BATCH = 1_000;

async function deleteInBatches(
  vault: Vault,
  table: 'jobs' | 'tombstones' | 'history' | 'proposals',
  keys: readonly unknown[],
): Promise<number> {
  const t = vault.db.table(table);
  for (let at = 0; at < keys.length; at += DELETE_BATCH) {
    const batch = keys.slice(at, at + DELETE_BATCH);
    await runTx(vault.db, 'rw', t, () => t.bulkDelete(batch as never[]), { label: `purging old ${table}` });
  }
  return keys.length;
}

/**
 * Every row of a table in primary-key order, page by page. Each page starts above the last key
 * read (one getAll over a key range), not at an offset: an offset walks a cursor past every row
 * before it, so reading a table that way cost time quadratic in its rows. In a trace of the app
 * indexing the 100 MB export (22k messages), those cursor reads took about 10 s of the database's
 * 45 s, beside the index worker's reads and writes. The next page is read while the caller works
 * on the last (`readAhead`).
 */
function pagesOf<T>(table: Table<T>, keyOf: (row: T) => IndexableType, size: number, label: string): AsyncGenerator<T[]> {
  return readAhead<T>(
    (last) =>
      withStoreTimeout((last === null ? table.orderBy(':id') : table.where(':id').above(keyOf(last))).limit(size).toArray(), { label }),
    size,
  );
}

/** Devices that stamped anything in this vault (every record and tombstone, page by page). */
async function knownDevices(vault: Vault, between: () => Promise<void>, size: number): Promise<Set<string>> {
  const vector: VersionVector = {};
  // Messages are rows or blocks of several (store/messages-store.ts): read through their scan.
  await scanMessages(vault.db, size, async (messages) => {
    for (const message of messages) addToVector(vector, message.hlc);
    await between();
  });
  for (const section of [...STAMPED_SECTIONS, 'tombstones'] as const) {
    if (section === 'messages') continue;
    const table = tableOf(vault.db, section) as Table<AnyRecord>;
    for await (const page of pagesOf(table, (row) => primaryKeyOf(section, row), size, 'reading stamps')) {
      for (const row of page) addToVector(vector, (row as { hlc: string }).hlc);
      await between();
    }
  }
  return new Set(Object.keys(vector));
}

export async function runRetention(
  vault: Vault,
  now: number,
  between: () => Promise<void> = async () => undefined,
  /** Rows a page reads (tests make it small to cross pages). */
  pageSize = PAGE,
): Promise<RetentionReport> {
  const { db, settings } = vault;
  const report: RetentionReport = {
    at: now,
    removed: { jobs: 0, tombstones: 0, history: 0, checkpoints: 0, proposals: 0 },
    tombstoneRules: { mergedEverywhere: 0, oldAndExported: 0 },
    knownDevices: 0,
  };

  const oldJobs = await withStoreTimeout(
    db.jobs
      .where('status')
      .equals('done')
      .filter((j) => j.updatedAt < now - RETENTION.jobMaxAgeMs)
      .primaryKeys(),
    { label: 'finding finished jobs' },
  );
  report.removed.jobs = await deleteInBatches(vault, 'jobs', oldJobs);
  await between();

  const self = (await settings.get('vault.deviceId')) ?? '';
  const devices = await knownDevices(vault, between, pageSize);
  const seenRows = await withStoreTimeout(db.settings.where('key').startsWith(SEEN_PREFIX).toArray(), {
    label: 'reading what devices merged',
  });
  const seen = seenRows.map((row) => row.value as DeviceSeen).filter((s) => s && typeof s.deviceId === 'string' && s.vector);
  for (const s of seen) devices.add(s.deviceId);
  if (self) devices.add(self);
  report.knownDevices = devices.size;
  const lastExportAt = await settings.get('vault.lastExportAt');
  const tombstones = await withStoreTimeout(db.tombstones.toArray(), { label: 'reading tombstones' });
  const purge: [string, string][] = [];
  for (const tomb of tombstones as TombstoneRecord[]) {
    const verdict = tombstoneVerdict(tomb, { self, known: [...devices], seen, lastExportAt, now });
    if (!verdict) continue;
    purge.push([tomb.table, tomb.id]);
    if (verdict === 'merged-everywhere') report.tombstoneRules.mergedEverywhere++;
    else report.tombstoneRules.oldAndExported++;
  }
  report.removed.tombstones = await deleteInBatches(vault, 'tombstones', purge);
  await between();

  const cap = await settings.get('retention.historyPerNote');
  const entries: { id: string; recordId: string; at: number }[] = [];
  for await (const page of pagesOf(db.history, (h) => h.id, pageSize, 'reading note history')) {
    for (const h of page) if (h.table === 'notes') entries.push({ id: h.id, recordId: h.recordId, at: h.at });
    await between();
  }
  report.removed.history = await deleteInBatches(vault, 'history', historyBeyondCap(entries, Math.max(1, cap)));
  await between();

  const checkpoints = await withStoreTimeout(db.checkpoints.orderBy('at').reverse().toArray(), { label: 'reading checkpoints' });
  const dropped = checkpoints.slice(MAX_CHECKPOINTS).map((c) => c.id);
  for (const id of dropped) {
    await runTx(
      db,
      'rw',
      [db.checkpoints, db.checkpointLog],
      async () => {
        await db.checkpointLog.where('checkpointId').equals(id).delete();
        await db.checkpoints.delete(id);
      },
      { label: 'dropping an old checkpoint' },
    );
  }
  report.removed.checkpoints = dropped.length;

  const decided = await withStoreTimeout(
    db.proposals
      .filter(
        (p) =>
          (p.status === 'applied' && (p.decidedAt ?? now) < now - RETENTION.appliedProposalMaxAgeMs) ||
          (p.status === 'dismissed' && (p.decidedAt ?? now) < now - RETENTION.dismissedProposalMaxAgeMs),
      )
      .primaryKeys(),
    { label: 'finding decided proposals' },
  );
  report.removed.proposals = await deleteInBatches(vault, 'proposals', decided);

  await settings.set('retention.last', report);
  return report;
}

/** Rows per table (Settings: "what each table holds"). */
export async function tableSizes(vault: Vault): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of vault.db.tables) out[table.name] = await withStoreTimeout(table.count(), { label: `counting ${table.name}` });
  return out;
}
