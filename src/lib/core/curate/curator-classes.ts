import type { ConfidenceTier, NoteRecord } from '../records';
import { recencyFactor } from '../recall/scoring';
import { isHeld } from './held';
import { provenanceOf } from './provenance';
import { DEFAULT_PROMOTION, promotionOf, type PromotionPolicy } from './promotion';
import { expiryMarker, isExpired, validityHorizon } from './validity';

/**
 * Curator classes proposed by the sweep from explicit signals: promotion (promotion.ts: pins,
 * copies, kept edits, reads), decay (the note's confidence tier and reads, as ranking sees it),
 * a stated validity horizon that has passed, confidence, provenance and contradiction. Pinned
 * notes are never archived or pruned; "prune" proposes a deletion that only happens when the
 * person confirms it.
 */
export type CuratorClass = 'promote' | 'keep' | 'archive' | 'prune';

export interface CuratorSignals {
  now: number;
  /** The note is contradicted by a newer kept note (an open supersession proposal). */
  contradicted: boolean;
  /** Copies of the chunks covering the note's source turns (promotion of candidates). */
  sourceCopies?: number;
  /** When the note was said (its conversation's date): what a validity horizon is read against. */
  saidAt?: number;
}

export interface CuratorPolicy {
  promotion: PromotionPolicy;
  /** A provisional candidate this confident with full provenance is proposed for keeping. */
  promoteMinConfidence: number;
  /** A kept note whose ranking weight has decayed below this, never copied, is proposed for archiving. */
  archiveBelowRecency: number;
  /** A kept note whose stated validity ended this long ago is proposed for archiving. */
  archiveExpiredAfterMs: number;
  /** An unreviewed or discarded candidate this old, never read, below `pruneMaxConfidence`, is proposed for deletion. */
  pruneAfterMs: number;
  pruneMaxConfidence: number;
  /** A superseded or archived note unread this long is proposed for deletion. */
  pruneStaleMs: number;
}

const DAY = 86_400_000;

export const DEFAULT_CURATOR_POLICY: CuratorPolicy = {
  promotion: DEFAULT_PROMOTION,
  promoteMinConfidence: 0.9,
  // Past its half-life: a Warm note unread for 2 years, a Hot one for 4 (confidence-tier.ts).
  archiveBelowRecency: 0.5,
  archiveExpiredAfterMs: 30 * DAY,
  pruneAfterMs: 30 * DAY,
  pruneMaxConfidence: 0.5,
  pruneStaleMs: 365 * DAY,
};

export interface CuratorVerdict {
  class: CuratorClass;
  reasons: string[];
  /** For a kept note's promotion: the tier it moves to. */
  tier?: ConfidenceTier;
}

const HELD_WAITS = 'from a flagged message: waits for a person to keep it';

function provisionalVerdict(note: NoteRecord, signals: CuratorSignals, policy: CuratorPolicy): CuratorVerdict {
  const age = signals.now - note.createdAt;
  // Extracted from a flagged message: only a person keeping it in the Inbox lets it in (held.ts),
  // so the curator never proposes keeping it (it may still propose pruning it).
  const held = note.status === 'provisional' && isHeld(note);
  const promotion =
    note.status === 'provisional' && !held ? promotionOf(note, { sourceCopies: signals.sourceCopies ?? 0 }, policy.promotion) : null;
  if (promotion) return { class: 'promote', reasons: promotion.reasons };
  if (
    note.status === 'provisional' &&
    !held &&
    note.confidence >= policy.promoteMinConfidence &&
    provenanceOf({ ...note, status: 'kept' }) >= 1
  ) {
    return { class: 'promote', reasons: [`confidence ${note.confidence}`] };
  }
  if (
    age >= policy.pruneAfterMs &&
    note.accessCount === 0 &&
    (note.status === 'discarded' || note.confidence < policy.pruneMaxConfidence)
  ) {
    return { class: 'prune', reasons: [`${note.status}, never read, ${Math.round(age / DAY)} days old, confidence ${note.confidence}`] };
  }
  return { class: 'keep', reasons: [held ? HELD_WAITS : 'awaiting review'] };
}

function keptVerdict(note: NoteRecord, signals: CuratorSignals, policy: CuratorPolicy): CuratorVerdict {
  const horizon = validityHorizon(note.text, signals.saidAt ?? note.createdAt);
  if (horizon && isExpired(horizon, signals.now - policy.archiveExpiredAfterMs)) {
    return { class: 'archive', reasons: [`no longer valid: it ${expiryMarker(horizon)}`] };
  }
  const promotion = promotionOf(note, { sourceCopies: 0 }, policy.promotion);
  if (promotion && promotion.to !== 'kept') return { class: 'promote', reasons: promotion.reasons, tier: promotion.to };
  const recency = recencyFactor(note, signals.now);
  if (recency < policy.archiveBelowRecency && (note.copyCount ?? 0) === 0) {
    const since = note.lastAccessedAt ?? note.keptAt ?? note.createdAt;
    return {
      class: 'archive',
      reasons: [
        `faded to ${Math.round(recency * 100)}% of its ranking weight: not read in ${Math.round((signals.now - since) / DAY)} days`,
      ],
    };
  }
  return { class: 'keep', reasons: ['in use'] };
}

export function classifyNote(note: NoteRecord, signals: CuratorSignals, policy: CuratorPolicy = DEFAULT_CURATOR_POLICY): CuratorVerdict {
  const lastTouch = note.lastAccessedAt ?? note.keptAt ?? note.createdAt;
  const idle = signals.now - lastTouch;

  const held = note.status === 'provisional' && isHeld(note);
  if (note.pinned) {
    if (held) return { class: 'keep', reasons: [`pinned, but ${HELD_WAITS}`] };
    if (note.status === 'provisional') return { class: 'promote', reasons: ['you pinned it'] };
    return { class: 'keep', reasons: ['pinned: never archived or pruned'] };
  }
  if (note.status === 'superseded' || note.status === 'archived') {
    if (idle >= policy.pruneStaleMs && note.accessCount === 0) {
      return { class: 'prune', reasons: [`${note.status} and never read in ${Math.round(idle / DAY)} days`] };
    }
    return { class: 'keep', reasons: [`${note.status}: kept as a record`] };
  }
  if (signals.contradicted) return { class: 'archive', reasons: ['contradicted by a newer kept note'] };
  if (note.status === 'provisional' || note.status === 'discarded') return provisionalVerdict(note, signals, policy);
  return keptVerdict(note, signals, policy);
}
