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
 * the recall engine's units (workers/recall: the chunk's context text embedded by `lexical-v1-384`,
 * BM25 over the chunk with two neighbours each side): 876 evidence and 32,593 other observations;
 * 0.05 keeps 98.2 % of the evidence and drops 13.4 % of the rest (0.08 keeps 95.5 % / drops 22.0 %;
 * 0.02 keeps 99.2 % / drops 7.3 %). Lower than the 0.12 measured on bare "speaker: text" turns:
 * the neighbour window lets BM25 find answers whose own words differ from the question's, and the
 * floor must not undo that. Re-run it (`measureFloor`) whenever the embedder or the units change.
 * Re-run on 2026-11-30 through the app's read path (the index service's units, `runLocomo` with the
 * floor off, 872 evidence and 32,458 other observations): 0.05 again (keeps 98.2 %, drops 13.4 %);
 * 0.02 / 0.06 / 0.08 for 99 / 97 / 95 %.
 */
export const LEXICAL_FLOOR = 0.05;

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
      'calibrateFloor on LoCoMo dev, categories 1-4, keep >= 98 % of evidence: 0.05 for lexical-v1-384 over the recall engine units (kept 98.2 %, dropped 13.4 % of noise)',
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
 * Once the prompt is answerable the funnel keeps some drops after all: those BM25 found that hold
 * the prompt's words (funnel.ts, FLOOR_SPARE_RATIO).
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
