/**
 * Index health (DESIGN: "recall@10 of HNSW vs exact search"): sampled documents' own vectors as
 * queries (the document itself left out of both lists), the index's search against an exact float
 * scan of the same stored vectors. For an HNSW below 0.95 the search breadth (ef) is raised step by
 * step; if that is not enough the index is rebuilt from the stored vectors and measured again. An
 * int8 scan has no breadth to raise: what it can miss are near-ties that its int8 first stage
 * ranks below the candidates it re-scores, and a rebuild would change nothing, so it is reported.
 */
import type { HealthReport } from '../../core/api/index-api';
import { FlatVectors } from '../../core/index/exact';
import { type LabelledHit, recallWithTies, sampleIndexes } from '../../core/index/health';
import type { VectorIndex } from '../../store/vector-index';
import type { ModelIndex } from './model-index';

export const HEALTH_TARGET = 0.95;
const K = 10;
const MAX_EF = 1024;

export interface HealthOptions {
  queries?: number;
  rng: () => number;
  now: () => number;
}

function exactOf(index: VectorIndex): FlatVectors {
  const labels = index.labels();
  const flat = new FlatVectors(index.dims, Math.max(1, labels.length));
  for (const label of labels) flat.set(label, index.vectorOf(label));
  return flat;
}

/** Mean recall@10 (ties counted) over `queries` sampled documents. */
export function measureIndexRecall(index: VectorIndex, exact: FlatVectors, queries: readonly number[]): number {
  if (queries.length === 0) return 1;
  let sum = 0;
  for (const label of queries) {
    const q = index.vectorOf(label);
    const drop = (hits: LabelledHit[]) => hits.filter((h) => h.label !== label).slice(0, K);
    const approx = drop(index.search(q, K + 1).map((h) => ({ label: h.label, similarity: h.similarity })));
    const truth = drop(exact.search(q, K + 1));
    sum += recallWithTies(approx, truth, K);
  }
  return sum / queries.length;
}

export async function checkIndexHealth(model: ModelIndex, options: HealthOptions): Promise<HealthReport> {
  const base = { checkedAt: options.now(), embedderId: model.embedderId, vectors: model.index.count, structure: model.index.structure };
  if (model.index.count < 2) return { ...base, recallAt10: 1, queries: 0, ef: model.index.params.ef, verdict: 'empty' };
  let exact = exactOf(model.index);
  const pick = () => {
    const labels = model.index.labels();
    return sampleIndexes(labels.length, options.queries ?? 100, options.rng).map((i) => labels[i]!);
  };
  let queries = pick();
  let recall = measureIndexRecall(model.index, exact, queries);
  let verdict: HealthReport['verdict'] = 'ok';
  if (model.index.structure === 'int8') {
    return { ...base, recallAt10: recall, queries: queries.length, ef: 0, verdict: recall >= HEALTH_TARGET ? 'ok' : 'low' };
  }
  while (recall < HEALTH_TARGET && model.index.params.ef < MAX_EF) {
    model.index.setEf(Math.min(MAX_EF, model.index.params.ef * 2));
    recall = measureIndexRecall(model.index, exact, queries);
    verdict = 'tuned';
  }
  if (recall < HEALTH_TARGET) {
    await model.rebuildFromRows();
    exact = exactOf(model.index);
    queries = pick();
    recall = measureIndexRecall(model.index, exact, queries);
    verdict = recall >= HEALTH_TARGET ? 'rebuilt' : 'low';
  }
  return { ...base, recallAt10: recall, queries: queries.length, ef: model.index.params.ef, verdict };
}
