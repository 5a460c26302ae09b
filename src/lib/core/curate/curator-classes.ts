import type { NoteRecord } from '../records';
import { isHeld } from './held';
import { provenanceOf } from './provenance';

/**
 * Curator classes proposed by the sweep from explicit signals: access count, last access,
 * confidence, provenance and contradiction. Pinned notes are never archived or pruned; "prune"
 * proposes a deletion that only happens when the person confirms it.
 */
export type CuratorClass = 'promote' | 'keep' | 'archive' | 'prune';

export interface CuratorSignals {
  now: number;
  /** The note is contradicted by a newer kept note (an open supersession proposal). */
  contradicted: boolean;
}

export interface CuratorPolicy {
  /** A provisional candidate read this often is proposed for keeping. */
  promoteMinAccess: number;
  /** ... or one this confident with full provenance. */
  promoteMinConfidence: number;
  /** A kept note unread this long, read fewer than `archiveMaxAccess` times, is proposed for archiving. */
  archiveIdleMs: number;
  archiveMaxAccess: number;
  /** An unreviewed or discarded candidate this old, never read, below `pruneMaxConfidence`, is proposed for deletion. */
  pruneAfterMs: number;
  pruneMaxConfidence: number;
  /** A superseded or archived note unread this long is proposed for deletion. */
  pruneStaleMs: number;
}

const DAY = 86_400_000;

export const DEFAULT_CURATOR_POLICY: CuratorPolicy = {
  promoteMinAccess: 3,
  promoteMinConfidence: 0.9,
  archiveIdleMs: 180 * DAY,
  archiveMaxAccess: 2,
  pruneAfterMs: 30 * DAY,
  pruneMaxConfidence: 0.5,
  pruneStaleMs: 365 * DAY,
};

export interface CuratorVerdict {
  class: CuratorClass;
  reasons: string[];
}

export function classifyNote(note: NoteRecord, signals: CuratorSignals, policy: CuratorPolicy = DEFAULT_CURATOR_POLICY): CuratorVerdict {
  const lastTouch = note.lastAccessedAt ?? note.keptAt ?? note.createdAt;
  const idle = signals.now - lastTouch;
  const age = signals.now - note.createdAt;

  // Extracted from a flagged message: only a person keeping it in the Inbox lets it in (held.ts),
  // so the curator never proposes keeping it (it may still propose pruning it).
  const held = note.status === 'provisional' && isHeld(note);
  const waits = 'from a flagged message: waits for a person to keep it';
  if (note.pinned) {
    if (held) return { class: 'keep', reasons: [`pinned, but ${waits}`] };
    if (note.status === 'provisional') return { class: 'promote', reasons: ['pinned by the person'] };
    return { class: 'keep', reasons: ['pinned: never archived or pruned'] };
  }
  if (note.status === 'superseded' || note.status === 'archived') {
    if (idle >= policy.pruneStaleMs && note.accessCount === 0) {
      return { class: 'prune', reasons: [`${note.status} and never read in ${Math.round(idle / DAY)} days`] };
    }
    return { class: 'keep', reasons: [`${note.status}: kept as a record`] };
  }
  if (signals.contradicted) return { class: 'archive', reasons: ['contradicted by a newer kept note'] };
  if (note.status === 'provisional' || note.status === 'discarded') {
    const promotable = note.status === 'provisional' && !held;
    if (promotable && note.accessCount >= policy.promoteMinAccess) {
      return { class: 'promote', reasons: [`read ${note.accessCount} times`] };
    }
    if (promotable && note.confidence >= policy.promoteMinConfidence && provenanceOf({ ...note, status: 'kept' }) >= 1) {
      return { class: 'promote', reasons: [`confidence ${note.confidence}`] };
    }
    if (
      age >= policy.pruneAfterMs &&
      note.accessCount === 0 &&
      (note.status === 'discarded' || note.confidence < policy.pruneMaxConfidence)
    ) {
      return { class: 'prune', reasons: [`${note.status}, never read, ${Math.round(age / DAY)} days old, confidence ${note.confidence}`] };
    }
    return { class: 'keep', reasons: [held ? waits : 'awaiting review'] };
  }
  if (idle >= policy.archiveIdleMs && note.accessCount < policy.archiveMaxAccess) {
    return { class: 'archive', reasons: [`not read in ${Math.round(idle / DAY)} days (read ${note.accessCount} times)`] };
  }
  return { class: 'keep', reasons: ['in use'] };
}
