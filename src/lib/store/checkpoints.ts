import Dexie, { type Table } from 'dexie';
import { fail } from '../core/errors';
import { newId } from '../core/ids';
import type { CheckpointLogRecord, CheckpointReason, CheckpointRecord } from '../core/records';
import type { VaultDb } from './schema';
import { runTx, withStoreTimeout, type TxOptions } from './transaction';

/**
 * Checkpoints: before a sweep's proposals are applied, a vault file is merged or restored (and
 * before a roll-back), the vault records a checkpoint, and every row those operations change gets
 * its before-image logged once (the first change wins: that is the row as it was at the
 * checkpoint). A compact change log, not a copy: a merge that changes 12 rows logs 12.
 *
 * Logged tables: the person's records and what travels with them. Chunks and vectors are derived
 * and device-local (stamps, HNSW labels); a roll-back queues the index rebuild that re-derives them
 * from the restored records, so they are not logged. The log is written in the same transaction as
 * the change it records, so a crash never leaves a change without its before-image.
 *
 * Rolling back to checkpoint C restores, newest checkpoint first, every logged row of C and of every
 * later active checkpoint; the oldest image of a row wins, the row as it was at C. A later
 * roll-back's own checkpoint is skipped (it and the checkpoints it undid cancel out), and
 * checkpoints are ordered by a strictly increasing `at`. Changes no
 * checkpoint logged (a note kept by hand in between) stay, unless a later logged operation changed
 * the same row. The roll-back takes a checkpoint of its own first, so it can be rolled back too.
 */
export const LOGGED_TABLES = [
  'conversations',
  'messages',
  // Messages stored several to a row (store/messages-store.ts): a change takes a message out of its
  // block, and the block's before-image brings it back.
  'messageBlocks',
  'notes',
  'history',
  'imports',
  'settings',
  'tombstones',
  'summaries',
  'proposals',
] as const;
export type LoggedTable = (typeof LOGGED_TABLES)[number];

const LOGGED: ReadonlySet<string> = new Set(LOGGED_TABLES);

/** Checkpoints kept (the oldest beyond this are dropped with their logs by retention). */
export const MAX_CHECKPOINTS = 20;

export type RowKey = string | [string, string];

export const refOf = (table: string, key: RowKey): string => JSON.stringify([table, key]);

export interface CheckpointTables {
  checkpoints: Table<CheckpointRecord, string>;
  checkpointLog: Table<CheckpointLogRecord, number>;
}

/** Logs before-images into one checkpoint; use inside a transaction that includes the checkpoint tables. */
export class CheckpointWriter {
  private added = 0;

  private constructor(
    private readonly tables: CheckpointTables,
    readonly checkpoint: CheckpointRecord,
    /** Refs logged so far; complete for a checkpoint made in this operation (no lookups needed). */
    private readonly known: Set<string> | null,
  ) {}

  /** A new checkpoint (or the active one with `key`, to add to it: one per sweep). */
  static async open(
    tables: CheckpointTables,
    options: { reason: CheckpointReason; label: string; key?: string | null; now: number },
  ): Promise<CheckpointWriter> {
    if (options.key) {
      const existing = await tables.checkpoints
        .where('state')
        .equals('active')
        .filter((c) => c.key === options.key)
        .first();
      if (existing) return new CheckpointWriter(tables, existing, null);
    }
    // Checkpoints are ordered by `at` (roll-backs undo every later one): strictly after the newest,
    // so two taken in one millisecond, or across a clock that went back, keep their order.
    const newest = await tables.checkpoints.orderBy('at').last();
    const checkpoint: CheckpointRecord = {
      id: newId('ckpt'),
      at: newest && newest.at >= options.now ? newest.at + 1 : options.now,
      reason: options.reason,
      label: options.label,
      key: options.key ?? null,
      entries: 0,
      state: 'active',
      rolledBackAt: null,
    };
    await tables.checkpoints.add(checkpoint);
    return new CheckpointWriter(tables, checkpoint, new Set());
  }

  /** Logs `before` (null: the operation creates the row) unless this row is logged already. */
  async log(table: string, key: RowKey, before: unknown): Promise<void> {
    if (!LOGGED.has(table)) return;
    const ref = refOf(table, key);
    if (this.known) {
      if (this.known.has(ref)) return;
      this.known.add(ref);
    } else if ((await this.tables.checkpointLog.where('[checkpointId+ref]').equals([this.checkpoint.id, ref]).count()) > 0) return;
    await this.tables.checkpointLog.add({ checkpointId: this.checkpoint.id, ref, table, key, before: before ?? null });
    this.added++;
  }

  /** Logs the current rows of `keys` in `table` (read in the same transaction). */
  async logRows(table: Table<unknown, unknown>, name: string, keys: readonly RowKey[]): Promise<void> {
    if (!LOGGED.has(name) || keys.length === 0) return;
    const fresh = this.known ? keys.filter((k) => !this.known!.has(refOf(name, k))) : keys;
    if (fresh.length === 0) return;
    const rows = await table.bulkGet(fresh as unknown[]);
    for (let i = 0; i < fresh.length; i++) await this.log(name, fresh[i]!, rows[i] ?? null);
  }

  /** Saves the entry count; call before the transaction ends. */
  async finish(): Promise<CheckpointRecord> {
    if (this.added === 0 && this.known && this.known.size === 0) {
      // Nothing changed: a checkpoint with nothing to roll back is not worth listing.
      await this.tables.checkpoints.delete(this.checkpoint.id);
      return { ...this.checkpoint, entries: 0 };
    }
    const entries = this.checkpoint.entries + this.added;
    await this.tables.checkpoints.update(this.checkpoint.id, { entries });
    return { ...this.checkpoint, entries };
  }
}

/** The checkpoint tables of the current transaction (whatever Dexie's zone). */
export function boundCheckpointTables(): CheckpointTables {
  const tx = Dexie.currentTransaction;
  if (!tx) throw new Error('boundCheckpointTables() must be called inside a Dexie transaction');
  return { checkpoints: tx.table('checkpoints'), checkpointLog: tx.table('checkpointLog') };
}

export function listCheckpoints(db: VaultDb, tx: TxOptions = {}): Promise<CheckpointRecord[]> {
  return withStoreTimeout(db.checkpoints.orderBy('at').reverse().toArray(), { ...tx, label: 'listing checkpoints' });
}

export interface RollbackReport {
  checkpoint: CheckpointRecord;
  /** Checkpoints undone (the target and every later active one). */
  undone: string[];
  rows: number;
  /** The checkpoint taken before the roll-back (to undo it). */
  rollbackCheckpointId: string;
}

/** Rolls the vault back to `checkpointId` in one transaction (see the file comment). */
export async function rollbackTo(db: VaultDb, checkpointId: string, now: number, tx: TxOptions = {}): Promise<RollbackReport> {
  const tables = [...LOGGED_TABLES.map((name) => db.table(name)), db.checkpoints, db.checkpointLog];
  return runTx(
    db,
    'rw',
    tables,
    async () => {
      const ctx = Dexie.currentTransaction!;
      const ct = boundCheckpointTables();
      const target = await ct.checkpoints.get(checkpointId);
      if (!target) fail('store/not-found', 'That checkpoint is no longer kept, so the vault cannot be rolled back to it.');
      if (target.state !== 'active') fail('input/invalid', 'The vault was already rolled back past that checkpoint.');
      const undo = (await ct.checkpoints.where('state').equals('active').toArray())
        .filter((c) => c.at >= target.at)
        .sort((a, b) => b.at - a.at);
      const writer = await CheckpointWriter.open(ct, { reason: 'rollback', label: `Before rolling back to “${target.label}”`, now });
      let rows = 0;
      for (const checkpoint of undo) {
        // A later roll-back undid only checkpoints after the target (the target is still active),
        // which are rolled back already: it and they cancel out, so its images are not restored.
        const cancelled = checkpoint.reason === 'rollback' && checkpoint.id !== target.id;
        const entries = cancelled ? [] : await ct.checkpointLog.where('checkpointId').equals(checkpoint.id).toArray();
        for (const entry of entries) {
          const table = ctx.table(entry.table);
          await writer.log(entry.table, entry.key, (await table.get(entry.key)) ?? null);
          if (entry.before === null) await table.delete(entry.key);
          else await table.put(entry.before);
          rows++;
        }
        await ct.checkpointLog.where('checkpointId').equals(checkpoint.id).delete();
        await ct.checkpoints.update(checkpoint.id, { state: 'rolled-back', rolledBackAt: now });
      }
      const own = await writer.finish();
      return { checkpoint: target, undone: undo.map((c) => c.id), rows, rollbackCheckpointId: own.id };
    },
    { ...tx, timeoutMs: tx.timeoutMs ?? 10 * 60_000, label: 'rolling the vault back' },
  );
}
