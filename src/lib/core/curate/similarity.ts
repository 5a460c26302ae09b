import { contentWordSet, jaccard } from '../extract/words';

/**
 * Near-duplicate thresholds. `neural` and `lexical` apply to the cosine similarity of the active
 * embedder's vectors and are starting values until `calibrateThreshold` is run on labelled pairs
 * embedded by that embedder; `terms` applies to `termSimilarity` and was calibrated on the
 * 28 hand-labelled pairs in tests/unit/curate/duplicate-pairs.ts (a test pins it).
 */
export const NEAR_DUPLICATE_THRESHOLD = { neural: 0.92, lexical: 0.85, terms: 0.8 } as const;

/** Jaccard similarity of the stemmed content words of two texts. */
export function termSimilarity(a: string, b: string): number {
  return jaccard(contentWordSet(a), contentWordSet(b));
}

export interface LabelledPair {
  similarity: number;
  duplicate: boolean;
}

export interface Calibration {
  threshold: number;
  f1: number;
  precision: number;
  recall: number;
}

/**
 * The threshold with the best F1 over labelled pairs (a pair is called a duplicate when its
 * similarity >= threshold). Ties go to the higher threshold: a missed merge costs less than a wrong one.
 */
export function calibrateThreshold(pairs: readonly LabelledPair[]): Calibration {
  const candidates = [...new Set(pairs.map((p) => p.similarity))].sort((x, y) => x - y);
  let best: Calibration = { threshold: 1, f1: 0, precision: 0, recall: 0 };
  for (const threshold of candidates) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const pair of pairs) {
      const called = pair.similarity >= threshold;
      if (called && pair.duplicate) tp += 1;
      else if (called) fp += 1;
      else if (pair.duplicate) fn += 1;
    }
    const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
    const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    if (f1 >= best.f1) best = { threshold, f1, precision, recall };
  }
  return best;
}
