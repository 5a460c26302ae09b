import { err, ok, vaultError, type Result } from '../errors';
import type { NoteRecord } from '../records';
import type { NoteChange } from './changes';

/**
 * An accepted supersession: the newer note gets `supersedes`, the older one becomes `superseded`
 * with `supersededBy`, which takes it out of default retrieval while it stays a record.
 */
export function supersedeChanges(newer: NoteRecord, older: NoteRecord, options: { now: number; why: string }): Result<NoteChange[]> {
  if (newer.id === older.id) return err(vaultError('input/invalid', 'A note cannot supersede itself.'));
  if (older.pinned) {
    return err(vaultError('input/invalid', 'The older note is pinned: unpin it before it can be superseded.', { id: older.id }));
  }
  if (older.status === 'superseded') {
    return err(vaultError('input/invalid', 'The older note is already superseded.', { id: older.id, by: older.supersededBy }));
  }
  return ok([
    {
      recordId: newer.id,
      action: 'supersede',
      why: options.why,
      before: newer,
      after: { ...newer, supersedes: older.id, updatedAt: options.now },
    },
    {
      recordId: older.id,
      action: 'superseded',
      why: options.why,
      before: older,
      after: { ...older, status: 'superseded', supersededBy: newer.id, updatedAt: options.now },
    },
  ]);
}

/** Of two conflicting notes, the newer one: later kept, then later created. */
export function newerOf(a: NoteRecord, b: NoteRecord): [newer: NoteRecord, older: NoteRecord] {
  const time = (n: NoteRecord): number => n.keptAt ?? n.createdAt;
  if (time(a) !== time(b)) return time(a) > time(b) ? [a, b] : [b, a];
  return a.createdAt >= b.createdAt ? [a, b] : [b, a];
}
