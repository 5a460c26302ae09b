import type { NoteRecord } from '../records';
import { isKeepBlocked } from './keep-gate';
import { confidenceTierOf, tierAbove, type ConfidenceTier } from '../recall/confidence-tier';

/**
 * Promotion, on signals the app records (never on a guess):
 * - a pin: the person's own word. A pinned candidate is proposed for keeping; a pinned note is
 *   Core already (no proposal).
 * - copies: every time the person copies a recall package into a prompt, the notes and chunks in it
 *   count one copy (store/reads-repo.ts). A candidate whose source turns went into copied packages
 *   repeatedly is proposed for keeping; a kept note copied repeatedly is proposed for Hot.
 * - a kept edit: a candidate the person edited before keeping it (flag `edited`) carries their
 *   work; it is proposed for Hot.
 * - reads: a candidate recall read often (candidates reach recall when issue 13 indexes them).
 * Every promotion is a proposal with its reasons; nothing is promoted without the person.
 */
export interface PromotionPolicy {
  /** Copied packages holding a candidate's source turns before it is proposed for keeping. */
  candidateMinSourceCopies: number;
  /** Reads of a candidate before it is proposed for keeping. */
  candidateMinReads: number;
  /** Copied packages holding a kept note before it is proposed one tier up. */
  noteMinCopies: number;
}

export const DEFAULT_PROMOTION: PromotionPolicy = { candidateMinSourceCopies: 2, candidateMinReads: 3, noteMinCopies: 3 };

export interface PromotionSignals {
  /** Copies of the chunks that cover the note's source messages (for candidates). */
  sourceCopies: number;
}

export type Promotion = { to: 'kept'; reasons: string[] } | { to: ConfidenceTier; reasons: string[] };

const times = (n: number): string => (n === 1 ? 'once' : `${n} times`);

export function promotionOf(note: NoteRecord, signals: PromotionSignals, policy: PromotionPolicy = DEFAULT_PROMOTION): Promotion | null {
  if (note.status === 'provisional') {
    // The quality gate decides for the sweep too: a candidate a person could not keep as it is is never proposed for keeping.
    if (isKeepBlocked(note)) return null;
    const reasons: string[] = [];
    if (note.pinned) reasons.push('you pinned it');
    if (signals.sourceCopies >= policy.candidateMinSourceCopies)
      reasons.push(`the conversation turns it came from went into packages you copied ${times(signals.sourceCopies)}`);
    if (note.accessCount >= policy.candidateMinReads) reasons.push(`recall read it ${times(note.accessCount)}`);
    return reasons.length > 0 ? { to: 'kept', reasons } : null;
  }
  if (note.status !== 'kept') return null;
  const next = tierAbove(confidenceTierOf(note));
  if (!next) return null;
  const reasons: string[] = [];
  const copies = note.copyCount ?? 0;
  if (copies >= policy.noteMinCopies) reasons.push(`it went into packages you copied ${times(copies)}`);
  if (note.flags.includes('edited')) reasons.push('you edited it before keeping it');
  return reasons.length > 0 ? { to: next, reasons } : null;
}
