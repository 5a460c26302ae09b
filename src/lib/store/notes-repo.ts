import { isAsLeft } from '../core/curate/changes';
import { fail } from '../core/errors';
import { newId } from '../core/ids';
import type { HistoryActor, HistoryRecord, NoteRecord } from '../core/records';
import type { VaultDb } from './schema';
import { safeNote } from './safe-note';
import { runTx, withStoreTimeout, type TxOptions } from './transaction';

export interface ChangeReason {
  actor: HistoryActor;
  action: string;
  why: string;
  at: number;
}

/**
 * Notes and their history. Every mutation writes the before/after pair to `history` in the same
 * transaction, so any change can be undone exactly.
 */
export class NotesRepo {
  constructor(
    private readonly db: VaultDb,
    /** Hybrid-logical-clock stamp for each change (merge orders versions by it). */
    private readonly stamp: () => string,
    private readonly tx: TxOptions = {},
  ) {}

  get(id: string): Promise<NoteRecord | undefined> {
    return withStoreTimeout(this.db.notes.get(id), { ...this.tx, label: 'reading a note' });
  }

  /** Creates or replaces a note (through write-time safety), recording the change. */
  async save(unsafe: NoteRecord, reason: ChangeReason): Promise<HistoryRecord> {
    let note = await safeNote(unsafe);
    return runTx(
      this.db,
      'rw',
      [this.db.notes, this.db.history],
      async () => {
        const before = (await this.db.notes.get(note.id)) ?? null;
        note = { ...note, hlc: this.stamp() };
        await this.db.notes.put(note);
        const entry: HistoryRecord = {
          id: newId('hist'),
          table: 'notes',
          recordId: note.id,
          at: reason.at,
          actor: reason.actor,
          action: reason.action,
          before,
          after: note,
          why: reason.why,
        };
        await this.db.history.add(entry);
        return entry;
      },
      { ...this.tx, label: 'saving a note' },
    );
  }

  /** History of one note, oldest first. */
  history(noteId: string): Promise<HistoryRecord[]> {
    return withStoreTimeout(this.db.history.where('[recordId+at]').between([noteId, -Infinity], [noteId, Infinity]).toArray(), {
      ...this.tx,
      label: 'reading a note history',
    });
  }

  /**
   * Restores the note to its state before `historyId` (deleting it when that change created it),
   * and records the undo itself so it can be undone in turn.
   */
  async undo(historyId: string, at: number): Promise<HistoryRecord> {
    const [entry] = await this.undoAll([historyId], at);
    return entry!;
  }

  /**
   * Undoes `historyIds` in this order, in one transaction: all or nothing. A note changed since
   * the change being undone is refused (`store/conflict`): restoring the before-image would throw
   * away the later change (a kept split piece would be deleted).
   */
  undoAll(historyIds: readonly string[], at: number): Promise<HistoryRecord[]> {
    return runTx(
      this.db,
      'rw',
      [this.db.notes, this.db.history, this.db.tombstones],
      async () => {
        const undone: HistoryRecord[] = [];
        for (const id of historyIds) undone.push(await this.undoOne(id, at));
        return undone;
      },
      { ...this.tx, label: 'undoing a change' },
    );
  }

  /** One undo, inside undoAll's transaction. */
  private async undoOne(historyId: string, at: number): Promise<HistoryRecord> {
    const entry = await this.db.history.get(historyId);
    if (!entry || entry.table !== 'notes') fail('store/not-found', 'That change is no longer in the history, so it cannot be undone.');
    const current = (await this.db.notes.get(entry.recordId)) ?? null;
    if (!isAsLeft(current, entry.after as NoteRecord | null)) {
      fail('store/conflict', 'That note changed since; undo the later change first.', { id: entry.recordId, historyId });
    }
    const prior = entry.before as NoteRecord | null;
    // The restored version gets a new stamp: on another device it must win over the undone one.
    const before = prior ? { ...prior, hlc: this.stamp() } : null;
    if (before) await this.db.notes.put(before);
    else {
      // Undoing a creation deletes the note: a tombstone keeps a merge from bringing it back.
      await this.db.notes.delete(entry.recordId);
      await this.db.tombstones.put({ table: 'notes', id: entry.recordId, hlc: this.stamp(), deletedAt: at });
    }
    const undoEntry: HistoryRecord = {
      id: newId('hist'),
      table: 'notes',
      recordId: entry.recordId,
      at,
      actor: 'user',
      action: 'undo',
      before: current,
      after: before,
      why: `Undid "${entry.action}" from ${new Date(entry.at).toISOString()}`,
    };
    await this.db.history.add(undoEntry);
    return undoEntry;
  }
}
