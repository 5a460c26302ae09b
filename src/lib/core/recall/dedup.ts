/**
 * Provenance-preserving dedup: exact and near-exact duplicates collapse to the copy with the highest
 * provenance (an engram beats the chat turn it was extracted from). Exact: equal content hash or
 * equal hash basis. Near-exact: word-set Jaccard >= NEAR_DUPLICATE_JACCARD (0.9: a changed word in a
 * ten-word note still collapses, a reworded sentence does not).
 */
import { hashBasis } from '../text/normalize';
import { words } from './text-features';
import type { DroppedCandidate, ScoredCandidate } from './types';

export const NEAR_DUPLICATE_JACCARD = 0.9;

interface Shape {
  hash: string;
  basis: string;
  words: Set<string>;
}

const shapeOf = (c: ScoredCandidate): Shape => ({
  hash: c.record.contentHash,
  basis: hashBasis(c.record.text),
  words: new Set(words(c.record.text)),
});

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter += 1;
  return inter / (a.size + b.size - inter);
}

function isDuplicate(a: Shape, b: Shape, threshold: number): 'exact' | 'near-exact' | null {
  if (a.hash === b.hash || a.basis === b.basis) return 'exact';
  // |A n B| / |A u B| <= min / max: sizes alone rule most pairs out before the intersection.
  if (Math.min(a.words.size, b.words.size) / Math.max(a.words.size, b.words.size, 1) < threshold) return null;
  return jaccard(a.words, b.words) >= threshold ? 'near-exact' : null;
}

/** Better copy: higher provenance, then higher score, then earlier rank (a stable input order). */
function better(a: ScoredCandidate, ai: number, b: ScoredCandidate, bi: number): boolean {
  if (a.scores.provenance !== b.scores.provenance) return a.scores.provenance > b.scores.provenance;
  if (a.scores.score !== b.scores.score) return a.scores.score > b.scores.score;
  return ai < bi;
}

/** Groups duplicates (transitively, in rank order), keeps the best copy of each, keeps rank order. */
export function dedupByProvenance(
  ranked: readonly ScoredCandidate[],
  threshold: number = NEAR_DUPLICATE_JACCARD,
): { kept: ScoredCandidate[]; dropped: DroppedCandidate[] } {
  const groupOf: number[] = [];
  const kinds: ('exact' | 'near-exact' | null)[] = [];
  const shapes = ranked.map(shapeOf);
  ranked.forEach((_, i) => {
    groupOf[i] = i;
    kinds[i] = null;
    for (let j = 0; j < i; j += 1) {
      const kind = isDuplicate(shapes[j]!, shapes[i]!, threshold);
      if (kind) {
        groupOf[i] = groupOf[j]!;
        kinds[i] = kind;
        break;
      }
    }
  });
  const bestOf = new Map<number, number>();
  ranked.forEach((candidate, i) => {
    const g = groupOf[i]!;
    const current = bestOf.get(g);
    if (current === undefined || better(candidate, i, ranked[current]!, current)) bestOf.set(g, i);
  });
  const kept: ScoredCandidate[] = [];
  const dropped: DroppedCandidate[] = [];
  ranked.forEach((candidate, i) => {
    const best = bestOf.get(groupOf[i]!)!;
    if (best === i) {
      kept.push(candidate);
      return;
    }
    const winner = ranked[best]!;
    const kind = kinds[i] ?? kinds[best] ?? 'near-exact';
    dropped.push({
      candidate,
      stage: 'dedup',
      reason: `${kind} duplicate of ${winner.record.id}; kept the ${winner.record.tier} copy (provenance ${winner.scores.provenance})`,
    });
  });
  return { kept, dropped };
}
