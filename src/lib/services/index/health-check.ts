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

/** Vectors per block of the exact scan: the check holds a float copy of this many, not of the index. */
export const TRUTH_BLOCK = 4_096;

/** Sampled documents (their labels) and the exact top K+1 of each one's vector over the whole index. */
export interface TruthSample {
  queries: number[];
  truth: LabelledHit[][];
}

/**
 * The exact neighbours of each sampled document, from a float scan of the index's vectors one block
 * at a time, merged across blocks. (A float copy of every vector was 460 MB at 300k, held while the
 * check ran beside the index itself; a block is 6 MB at 384 dimensions.)
 */
export function sampleTruth(index: VectorIndex, queries: readonly number[]): TruthSample {
  const vectors = queries.map((label) => index.vectorOf(label));
  const truth: LabelledHit[][] = queries.map(() => []);
  const labels = index.labels();
  for (let start = 0; start < labels.length; start += TRUTH_BLOCK) {
    const slice = labels.slice(start, start + TRUTH_BLOCK);
    const block = new FlatVectors(index.dims, slice.length);
    for (const label of slice) block.set(label, index.vectorOf(label));
    vectors.forEach((vector, i) => {
      truth[i] = [...truth[i]!, ...block.search(vector, K + 1)].sort((a, b) => b.similarity - a.similarity).slice(0, K + 1);
    });
  }
  return { queries: [...queries], truth };
}

/** Mean recall@10 (ties counted) over the sampled documents, each left out of both lists. */
export function measureIndexRecall(index: VectorIndex, sample: TruthSample): number {
  if (sample.queries.length === 0) return 1;
  let sum = 0;
  sample.queries.forEach((label, i) => {
    const drop = (hits: LabelledHit[]) => hits.filter((h) => h.label !== label).slice(0, K);
    const approx = drop(index.search(index.vectorOf(label), K + 1).map((h) => ({ label: h.label, similarity: h.similarity })));
    sum += recallWithTies(approx, drop(sample.truth[i]!), K);
  });
  return sum / sample.queries.length;
}

export async function checkIndexHealth(model: ModelIndex, options: HealthOptions): Promise<HealthReport> {
  const base = { checkedAt: options.now(), embedderId: model.embedderId, vectors: model.index.count, structure: model.index.structure };
  if (model.index.count < 2) return { ...base, recallAt10: 1, queries: 0, ef: model.index.params.ef, verdict: 'empty' };
  const pick = () => {
    const labels = model.index.labels();
    return sampleTruth(
      model.index,
      sampleIndexes(labels.length, options.queries ?? 100, options.rng).map((i) => labels[i]!),
    );
  };
  let sample = pick();
  let recall = measureIndexRecall(model.index, sample);
  let verdict: HealthReport['verdict'] = 'ok';
  if (model.index.structure === 'int8') {
    return { ...base, recallAt10: recall, queries: sample.queries.length, ef: 0, verdict: recall >= HEALTH_TARGET ? 'ok' : 'low' };
  }
  while (recall < HEALTH_TARGET && model.index.params.ef < MAX_EF) {
    model.index.setEf(Math.min(MAX_EF, model.index.params.ef * 2));
    recall = measureIndexRecall(model.index, sample);
    verdict = 'tuned';
  }
  if (recall < HEALTH_TARGET) {
    await model.rebuildFromRows();
    sample = pick();
    recall = measureIndexRecall(model.index, sample);
    verdict = recall >= HEALTH_TARGET ? 'rebuilt' : 'low';
  }
  return { ...base, recallAt10: recall, queries: sample.queries.length, ef: model.index.params.ef, verdict };
}
