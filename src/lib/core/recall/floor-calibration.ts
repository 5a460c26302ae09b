/**
 * Measuring an embedder's similarity floor on evaluation data. An observation is one candidate that
 * reached the funnel (fused top-width) for an answerable question, with its best cosine and whether
 * it covers an evidence turn. The floor is the highest value on a 0.01 grid that still keeps the
 * target share of evidence observations: by construction it removes at most (1 - target) of the
 * evidence the retrieval found, and whatever noise lies below it.
 */

export interface FloorObservation {
  similarity: number;
  evidence: boolean;
}

export interface FloorCalibrationResult {
  floor: number;
  targetEvidenceKept: number;
  /** Share of evidence observations at or above the floor. */
  evidenceKept: number;
  /** Share of non-evidence observations below the floor. */
  noiseDropped: number;
  evidenceCount: number;
  noiseCount: number;
}

export interface CalibrateOptions {
  targetEvidenceKept?: number;
  step?: number;
}

function shareAtOrAbove(values: readonly number[], floor: number): number {
  if (values.length === 0) return 1;
  return values.filter((v) => v >= floor - 1e-12).length / values.length;
}

export function calibrateFloor(observations: readonly FloorObservation[], options: CalibrateOptions = {}): FloorCalibrationResult {
  const target = options.targetEvidenceKept ?? 0.98;
  const step = options.step ?? 0.01;
  const evidence = observations.filter((o) => o.evidence).map((o) => o.similarity);
  const noise = observations.filter((o) => !o.evidence).map((o) => o.similarity);
  let floor = 0;
  for (let i = 1; i * step <= 1 + 1e-9; i += 1) {
    const candidate = Math.round(i * step * 1e6) / 1e6;
    if (shareAtOrAbove(evidence, candidate) < target) break;
    floor = candidate;
  }
  return {
    floor,
    targetEvidenceKept: target,
    evidenceKept: shareAtOrAbove(evidence, floor),
    noiseDropped: noise.length === 0 ? 0 : 1 - shareAtOrAbove(noise, floor),
    evidenceCount: evidence.length,
    noiseCount: noise.length,
  };
}
