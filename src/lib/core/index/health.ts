/**
 * Index health: recall@k of an approximate (HNSW) search against exact search on sampled queries
 * (DESIGN: "health: index integrity and recall@10 of HNSW vs exact search"; below 0.95 the index
 * is tuned or rebuilt). Pure: the searches and the randomness come in as parameters.
 */

export interface RecallReport {
  k: number;
  queries: number;
  /** Mean share of the exact top-k that the approximate search also returned. */
  recall: number;
  /** The worst single query. */
  min: number;
}

/** `m` distinct indexes out of `n`, chosen by `rng` (partial Fisher-Yates, deterministic for a seed). */
export function sampleIndexes(n: number, m: number, rng: () => number): number[] {
  const pool = Array.from({ length: n }, (_, i) => i);
  const take = Math.min(n, m);
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(rng() * (n - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, take);
}

/** Share of `exact` found in `approx` (both lists of labels, best first). */
export function recallOf(approx: readonly number[], exact: readonly number[], k: number): number {
  const truth = exact.slice(0, k);
  if (truth.length === 0) return 1;
  const found = new Set(approx.slice(0, k));
  return truth.filter((label) => found.has(label)).length / truth.length;
}

export function measureRecall(
  queries: readonly Float32Array[],
  approximate: (query: Float32Array, k: number) => number[],
  exact: (query: Float32Array, k: number) => number[],
  k = 10,
): RecallReport {
  let sum = 0;
  let min = 1;
  for (const query of queries) {
    const r = recallOf(approximate(query, k), exact(query, k), k);
    sum += r;
    min = Math.min(min, r);
  }
  return { k, queries: queries.length, recall: queries.length ? sum / queries.length : 1, min: queries.length ? min : 1 };
}

/** What the health panel does with a report: fine, raise ef, or rebuild. */
export function recallVerdict(report: RecallReport, target = 0.95): 'ok' | 'tune' | 'rebuild' {
  if (report.recall >= target) return 'ok';
  return report.recall >= target - 0.1 ? 'tune' : 'rebuild';
}
