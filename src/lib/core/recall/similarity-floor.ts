/**
 * Similarity floor: a low absolute cosine threshold, a noise backstop rather than a ranker. Cosines
 * are not comparable across embedders, so the floor comes from a per-embedder calibration table
 * (values measured with `calibrateFloor` in floor-calibration.ts, not guessed).
 */
import type { Embedder } from '../api/embedder';
import type { DroppedCandidate, FloorStatus, ScoredCandidate } from './types';

export interface FloorCalibration {
  /** Embedder id prefix the entry applies to. */
  idPrefix: string;
  value: number;
  derivation: string;
}

/** First matching prefix wins. Unknown embedders fall back to the entry for their kind. */
export const NEURAL_FLOOR = 0.4;

/**
 * Measured, not guessed: `calibrateFloor` (target: keep >= 98 % of evidence) over the funnel
 * candidates (fused top width, before the floor) of the 760 answerable LoCoMo dev questions, with
 * the BM25 and LexicalEmbedder (`lexical-v1-384`) of the index-core branch at 0351f18: 751 evidence
 * and 32,148 other observations; the floor 0.12 keeps 98.3 % of the evidence and drops 7.3 % of the
 * rest (0.10 would keep 99.2 % / drop 4.4 %; 0.14 keeps 95.7 % / drops 11.1 %). Re-run it whenever
 * the lexical embedder's features or weights change.
 */
export const LEXICAL_FLOOR = 0.12;

export const FLOOR_TABLE: readonly FloorCalibration[] = [
  {
    idPrefix: 'transformers:',
    value: NEURAL_FLOOR,
    derivation: 'design value for MiniLM-class sentence models (DESIGN read path 4); not yet re-measured here',
  },
  {
    idPrefix: 'lexical-',
    value: LEXICAL_FLOOR,
    derivation:
      'calibrateFloor on LoCoMo dev, categories 1-4, keep >= 98 % of evidence: 0.12 for lexical-v1-384 (kept 98.3 %, dropped 7.3 % of noise)',
  },
];

export function floorFor(embedder: Pick<Embedder, 'id' | 'kind'>, override?: number | null): FloorStatus {
  if (override !== undefined && override !== null) {
    return { value: override, embedderId: embedder.id, derivation: 'explicit override' };
  }
  const entry = FLOOR_TABLE.find((e) => embedder.id.startsWith(e.idPrefix));
  if (entry) return { value: entry.value, embedderId: embedder.id, derivation: entry.derivation };
  const byKind = embedder.kind === 'neural' ? FLOOR_TABLE[0]! : FLOOR_TABLE[1]!;
  return {
    value: byKind.value,
    embedderId: embedder.id,
    derivation: `no entry for this embedder; ${embedder.kind} default (${byKind.derivation})`,
  };
}

/**
 * Drops candidates whose best cosine to any variant is below the floor. A candidate without a vector
 * (not embedded yet) cannot be judged and is kept: the floor removes noise, it never hides content.
 */
export function applyFloor(
  candidates: readonly ScoredCandidate[],
  floor: number,
): { kept: ScoredCandidate[]; dropped: DroppedCandidate[] } {
  const kept: ScoredCandidate[] = [];
  const dropped: DroppedCandidate[] = [];
  for (const candidate of candidates) {
    const sim = candidate.signals.vectorSimilarity;
    if (sim === null || sim >= floor) kept.push(candidate);
    else dropped.push({ candidate, stage: 'floor', reason: `similarity ${sim.toFixed(3)} is below the floor ${floor.toFixed(3)}` });
  }
  return { kept, dropped };
}
