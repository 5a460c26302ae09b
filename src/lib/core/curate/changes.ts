import type { HistoryActor, HistoryRecord, NoteRecord } from '../records';
import { canonicalJson } from '../vaultfile/canonical-json';

/**
 * Every curation step is data: the note before and after (null for a creation or a deletion),
 * so the store can write it with a history entry in one transaction, and undo is the inverse.
 */
export interface NoteChange {
  recordId: string;
  action: string;
  why: string;
  before: NoteRecord | null;
  after: NoteRecord | null;
}

export interface HistoryOptions {
  now: number;
  actor: HistoryActor;
  newId: () => string;
}

export function historyFor(changes: readonly NoteChange[], options: HistoryOptions): HistoryRecord[] {
  return changes.map((change) => ({
    id: options.newId(),
    table: 'notes',
    recordId: change.recordId,
    at: options.now,
    actor: options.actor,
    action: change.action,
    before: change.before,
    after: change.after,
    why: change.why,
  }));
}

/** The changes that undo `changes`: reversed order, before and after swapped. */
export function invertChanges(changes: readonly NoteChange[]): NoteChange[] {
  return [...changes].reverse().map((change) => ({
    recordId: change.recordId,
    action: `undo:${change.action}`,
    why: `Undo: ${change.why}`,
    before: change.after,
    after: change.before,
  }));
}

/** The state after `changes`, on a copy (a change whose `before` does not match the current record is a conflict). */
export function applyChanges(
  notes: ReadonlyMap<string, NoteRecord>,
  changes: readonly NoteChange[],
): { ok: true; notes: Map<string, NoteRecord> } | { ok: false; conflict: NoteChange } {
  const next = new Map(notes);
  for (const change of changes) {
    const current = next.get(change.recordId) ?? null;
    if (JSON.stringify(current) !== JSON.stringify(change.before)) return { ok: false, conflict: change };
    if (change.after) next.set(change.recordId, change.after);
    else next.delete(change.recordId);
  }
  return { ok: true, notes: next };
}

/**
 * Whether a note is still as a change left it (`after`, null for a deletion), so undoing that
 * change loses nothing written since. The same stamp says so; so does the same content under a
 * newer stamp, which is what undoing a later change leaves (undo restores with a fresh stamp).
 */
export function isAsLeft(current: NoteRecord | null, after: NoteRecord | null): boolean {
  if (current === null || after === null) return current === after;
  if (current.hlc === after.hlc) return true;
  return canonicalJson({ ...current, hlc: '' }) === canonicalJson({ ...after, hlc: '' });
}
