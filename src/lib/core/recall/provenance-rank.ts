/**
 * Provenance rank, gate-first: the funnel sorts only the fit-gate's survivors, by
 * relevance x provenance x recency. Sorting before the gate would let provenance lift an off-topic
 * engram; after it, provenance only orders memories already judged relevant.
 */
import type { ScoredCandidate } from './types';

export function compareByProvenanceScore(a: ScoredCandidate, b: ScoredCandidate): number {
  return (
    b.scores.score - a.scores.score ||
    b.scores.provenance - a.scores.provenance ||
    b.scores.relevance - a.scores.relevance ||
    (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0)
  );
}

export function provenanceRank(survivors: readonly ScoredCandidate[]): ScoredCandidate[] {
  return [...survivors].sort(compareByProvenanceScore);
}
