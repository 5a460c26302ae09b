import { newId } from '../core/ids';
import type { HistoryRecord, TombstoneRecord } from '../core/records';
import type { StampedSection } from '../core/vaultfile/sections';
import type { ChangeReason } from './notes-repo';
import type { VaultDb } from './schema';
import { runTx, type TxOptions } from './transaction';
import { tableOf } from './vaultfile-tables';

/**
 * THE way to delete a synced record (conversations, messages, notes, chunks). A row deleted
 * without a tombstone comes back with the next merge of any vault file that still holds it; with
 * a tombstone stamped now, the deletion wins over every version made before it, on every device
 * that merges. The row is removed and its tombstone written in the same transaction (nested into
 * the caller's transaction when it runs inside one that covers the same tables). A deleted note's
 * last version goes to `history` (before = the note, after = null), like every note change.
 *
 * Undo: writing the record again with a fresh stamp (NotesRepo.undo does) makes it win over the
 * tombstone. Deleting children (a conversation's messages, a note's chunks) is the caller's choice:
 * pass their ids too.
 */

export interface DeleteContext {
  db: VaultDb;
  /** The vault's clock: `() => vault.clock.stamp()`. */
  stamp: () => string;
  now?: () => number;
  tx?: TxOptions;
}

/** Deletes `ids` from `table` with tombstones; returns how many rows existed. */
export function deleteRecords(
  context: DeleteContext,
  table: StampedSection,
  ids: readonly string[],
  reason?: ChangeReason,
): Promise<number> {
  const { db } = context;
  const now = context.now ?? Date.now;
  return runTx(
    db,
    'rw',
    [tableOf(db, table), db.tombstones, db.history],
    async () => {
      const rows = await tableOf(db, table).bulkGet(ids.slice());
      const at = now();
      const tombstones: TombstoneRecord[] = ids.map((id) => ({ table, id, hlc: context.stamp(), deletedAt: at }));
      await tableOf(db, table).bulkDelete(ids.slice());
      await db.tombstones.bulkPut(tombstones);
      if (table === 'notes') {
        const history: HistoryRecord[] = [];
        rows.forEach((row, i) => {
          if (!row) return;
          history.push({
            id: newId('hist'),
            table: 'notes',
            recordId: ids[i]!,
            at: reason?.at ?? at,
            actor: reason?.actor ?? 'user',
            action: reason?.action ?? 'delete',
            before: row,
            after: null,
            why: reason?.why ?? 'Deleted.',
          });
        });
        await db.history.bulkAdd(history);
      }
      return rows.filter(Boolean).length;
    },
    { ...context.tx, label: `deleting ${ids.length} ${table}` },
  );
}

/** One record: `deleteRecords` for a single id. */
export function deleteRecord(context: DeleteContext, table: StampedSection, id: string, reason?: ChangeReason): Promise<boolean> {
  return deleteRecords(context, table, [id], reason).then((n) => n > 0);
}
