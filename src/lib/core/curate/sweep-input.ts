import type { NoteRecord } from '../records';
import type { SimilarPair } from './clusters';
import { isActive } from './provenance';
import { NEAR_DUPLICATE_THRESHOLD, termSimilarity } from './similarity';
import type { SweepInput } from './sweep';

/**
 * The sweep's input from the notes alone (the Notes screen runs the sweep on the page, over the
 * notes it shows): near-duplicate pairs by term overlap (the calibrated `terms` threshold), and
 * the supersessions a person accepted by keeping a candidate the decision stage flagged as
 * contradicting an older note.
 */
export const MAX_PAIRWISE_NOTES = 1500;

export function termPairs(notes: readonly NoteRecord[], threshold: number): SimilarPair[] {
  const active = notes.filter(isActive).slice(0, MAX_PAIRWISE_NOTES);
  const pairs: SimilarPair[] = [];
  for (let i = 0; i < active.length; i++) {
    for (let j = i + 1; j < active.length; j++) {
      const similarity = termSimilarity(active[i]!.text, active[j]!.text);
      if (similarity >= threshold) pairs.push({ a: active[i]!.id, b: active[j]!.id, similarity });
    }
  }
  return pairs;
}

export function acceptedSupersessions(notes: readonly NoteRecord[]): [string, string][] {
  const byId = new Map(notes.map((n) => [n.id, n]));
  const out: [string, string][] = [];
  for (const note of notes) {
    const proposal = note.review?.proposal;
    if (note.status !== 'kept' || note.supersedes || proposal?.action !== 'supersede') continue;
    const older = byId.get(proposal.targetId);
    if (older && older.status === 'kept') out.push([note.id, older.id]);
  }
  return out;
}

export function sweepInputFrom(notes: readonly NoteRecord[], now: number): SweepInput {
  const engrams = notes.filter((n) => n.tier !== 'resource' && n.tier !== 'web');
  const threshold = NEAR_DUPLICATE_THRESHOLD.terms;
  const accepted = acceptedSupersessions(engrams);
  return {
    notes: engrams,
    similarPairs: termPairs(engrams, threshold),
    threshold,
    acceptedSupersessions: accepted,
    contradicted: new Set(accepted.map(([, older]) => older)),
    now,
  };
}
