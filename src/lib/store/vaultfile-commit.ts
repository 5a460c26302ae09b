import Dexie, { type Table } from 'dexie';
import { SECTION_NAMES, type SectionName, type SectionRecords } from '../core/vaultfile/sections';
import type { VaultDb } from './schema';
import { runTx, type TxOptions } from './transaction';
import type { Vault } from './vault';
import type { Spool } from './vaultfile-spool';
import { tableOf } from './vaultfile-tables';

/**
 * The commit step of a restore or a merge: ONE read-write IndexedDB transaction over every
 * vault-file table, fed page by page from a Spool. IndexedDB commits a transaction whole or not at
 * all, so other readers (views, the job queue, other tabs) see the vault before or after, never
 * in between, and a failure, a cancel or a closed tab part-way leaves it exactly as it was.
 *
 * Reading a spooled page is not an IndexedDB request, and a transaction with no pending request
 * commits on its own; `keepAlive` keeps it busy with cheap reads while a page is read (the few
 * milliseconds a page takes). Memory stays at one page.
 *
 * Dexie finds "the current transaction" through a zone that follows awaited Dexie promises but can
 * be lost across layers of plain async functions; a lost zone would run a read or write in its own
 * transaction, outside the commit. So the commit's code reaches its tables through `boundTables`,
 * which names the transaction explicitly.
 */

/**
 * Tables the commit also writes besides the file's sections: the message blocks (messages a merge or
 * restore changes leave them, store/messages-store.ts), summaries (carried as settings lines),
 * proposals and the checkpoint log.
 */
export const COMMIT_EXTRA_TABLES = ['messageBlocks', 'summaries', 'proposals', 'checkpoints', 'checkpointLog'] as const;
export type CommitExtraTable = (typeof COMMIT_EXTRA_TABLES)[number];

/** Table access bound to one transaction, whatever the zone. */
export interface BoundTables {
  <K extends SectionName>(section: K): Table<SectionRecords[K], unknown>;
  <K extends CommitExtraTable>(name: K): VaultDb[K];
}

/** Call at the top of a transaction callback: the tables of that transaction. */
export function boundTables(): BoundTables {
  const tx = Dexie.currentTransaction;
  if (!tx) throw new Error('boundTables() must be called inside a Dexie transaction');
  return ((name: string) => tx.table(name)) as BoundTables;
}

/** The job another part of the app runs to rebuild the search indexes from the stored records. */
export const INDEX_REBUILD_JOB = 'index.rebuild';

/** Generous, but a stuck disk still surfaces (store/timeout) and aborts the commit. */
export function commitTimeoutMs(records: number): number {
  return 120_000 + 5 * records;
}

export function runCommit<T>(db: VaultDb, records: number, fn: () => Promise<T>, options: { label: string; tx?: TxOptions }): Promise<T> {
  return runTx(
    db,
    'rw',
    [...SECTION_NAMES.map((section) => tableOf(db, section)), ...COMMIT_EXTRA_TABLES.map((name) => db.table(name))],
    fn,
    {
      ...options.tx,
      timeoutMs: options.tx?.timeoutMs ?? commitTimeoutMs(records),
      label: options.label,
    },
  );
}

/**
 * Awaits a promise that is not an IndexedDB request (reading a spooled page) from inside a
 * transaction without letting it commit: until the promise settles, one cheap read after another
 * is issued on the transaction, and the result is taken up inside such a read's callback, where the
 * transaction is active again. (Dexie.waitFor does the same idea, but in Chromium its result
 * could arrive after the transaction had finished.)
 */
export async function keepAlive<T>(tables: BoundTables, promise: Promise<T>): Promise<T> {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | null = null;
  promise.then(
    (value) => (outcome = { ok: true, value }),
    (error: unknown) => (outcome = { ok: false, error }),
  );
  while (outcome === null) await tables('settings').get('');
  const settled = outcome as { ok: true; value: T } | { ok: false; error: unknown };
  if (!settled.ok) throw settled.error;
  return settled.value;
}

/** Runs `fn` on each spooled page of `section` from inside a transaction, keeping it alive. */
export async function eachSpooledPage<K extends SectionName>(
  tables: BoundTables,
  spool: Spool,
  section: K,
  fn: (page: SectionRecords[K][]) => Promise<void>,
): Promise<void> {
  if (spool.count(section) === 0) return;
  const pages = spool.pages(section);
  try {
    for (;;) {
      const next = await keepAlive(
        tables,
        Dexie.ignoreTransaction(() => pages.next()),
      );
      if (next.done) return;
      await fn(next.value);
    }
  } finally {
    await keepAlive(
      tables,
      Dexie.ignoreTransaction(() => pages.return(undefined)),
    );
  }
}

/** Queues re-indexing after the vault's records were replaced or merged (one job at a time). */
export async function queueReindex(vault: Vault, reason: 'vault-restore' | 'vault-merge', now: number): Promise<void> {
  await vault.jobs.enqueue({ type: INDEX_REBUILD_JOB, payload: { reason, at: now }, dedupeKey: INDEX_REBUILD_JOB, priority: 50 }, now);
}
