import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FlatVectors } from '../../../src/lib/core/index/exact';
import { measureRecall, recallOf, recallVerdict, sampleIndexes } from '../../../src/lib/core/index/health';
import { TopK } from '../../../src/lib/core/index/top-k';
import { lexicalVector } from '../../../src/lib/models/lexical-embedder';
import { measureIndexRecall, sampleTruth, TRUTH_BLOCK } from '../../../src/lib/services/index/health-check';
import { VectorIndex } from '../../../src/lib/store/vector-index';
import { memoryManifestStore } from '../../../src/lib/store/vector-index-manifest';
import { mulberry32 } from '../../factories/corpus';

const unit = (values: number[]) => {
  const n = Math.hypot(...values) || 1;
  return Float32Array.from(values, (v) => v / n);
};

describe('TopK', () => {
  it('keeps the k best, best first, ties to the lower index', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 60 }), fc.integer({ min: 0, max: 12 }), (scores, k) => {
        const top = new TopK(k);
        scores.forEach((s, i) => top.push(i, s));
        const expected = scores
          .map((score, index) => ({ index, score }))
          .sort((a, b) => b.score - a.score || a.index - b.index)
          .slice(0, k);
        expect(top.result()).toEqual(expected);
      }),
    );
  });
});

describe('FlatVectors (exact search)', () => {
  it('returns the true top-k by dot product, after replacements and deletions', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }), { minLength: 1, maxLength: 40 }),
        fc.nat(),
        (rows, pick) => {
          const flat = new FlatVectors(4, 2);
          const kept = new Map<number, Float32Array>();
          rows.forEach((r, i) => {
            flat.set(i * 7, unit(r));
            kept.set(i * 7, unit(r));
          });
          const gone = (pick % rows.length) * 7;
          flat.delete(gone);
          kept.delete(gone);
          expect(flat.size).toBe(kept.size);
          const q = unit(rows[0]!);
          const dot = (v: Float32Array) => v.reduce((s, x, i) => s + x * q[i]!, 0);
          const expected = [...kept.entries()]
            .map(([label, v]) => ({ label, similarity: dot(v) }))
            .sort((a, b) => b.similarity - a.similarity || a.label - b.label);
          const got = flat.search(q, 5);
          expect(got.map((h) => h.label)).toEqual(expected.slice(0, 5).map((h) => h.label));
        },
      ),
    );
  });
});

describe('health', () => {
  it('samples distinct indexes deterministically', () => {
    const a = sampleIndexes(100, 10, mulberry32(3));
    expect(new Set(a).size).toBe(10);
    expect(a).toEqual(sampleIndexes(100, 10, mulberry32(3)));
    expect(sampleIndexes(5, 10, mulberry32(3)).sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('computes recall@k and a verdict', () => {
    expect(recallOf([1, 2, 3], [3, 2, 9], 3)).toBeCloseTo(2 / 3);
    const report = measureRecall(
      [new Float32Array(1), new Float32Array(1)],
      () => [1, 2],
      () => [1, 3],
      2,
    );
    expect(report).toEqual({ k: 2, queries: 2, recall: 0.5, min: 0.5 });
    expect(recallVerdict({ ...report, recall: 0.97 })).toBe('ok');
    expect(recallVerdict({ ...report, recall: 0.9 })).toBe('tune');
    expect(recallVerdict({ ...report, recall: 0.5 })).toBe('rebuild');
  });

  it('measures HNSW against exact search on lexical vectors: recall@10 >= 0.95 with the default settings', async () => {
    const words = 'garden maple moss stone pond budget travel music cooking running reading painting tea lantern river'.split(' ');
    const rng = mulberry32(5);
    const texts = Array.from({ length: 1500 }, () => Array.from({ length: 8 }, () => words[Math.floor(rng() * words.length)]).join(' '));
    const index = await VectorIndex.create({
      name: 'health',
      modelId: 'lexical-v1-384',
      dims: 384,
      capacity: 2000,
      manifests: memoryManifestStore(),
    });
    const exact = new FlatVectors(384);
    texts.forEach((t, i) => {
      const vector = lexicalVector(t);
      const [label] = index.add([{ recordId: `r${i}`, contentHash: '0'.repeat(64), vector }]);
      exact.set(label!, vector);
    });
    const queries = sampleIndexes(texts.length, 40, mulberry32(9)).map((i) =>
      lexicalVector(`${texts[i]!.split(' ').slice(0, 4).join(' ')} tea`),
    );
    const report = measureRecall(
      queries,
      (q, k) => index.search(q, k).map((h) => h.label),
      (q, k) => exact.search(q, k).map((h) => h.label),
      10,
    );
    expect(report.queries).toBe(40);
    expect(report.recall).toBeGreaterThanOrEqual(0.95);
  });
});

describe('the health check’s exact neighbours (issue 19)', () => {
  it('scanned a block at a time, they are the neighbours of one scan over every vector', async () => {
    const rng = mulberry32(3);
    const count = TRUTH_BLOCK * 2 + 123; // three blocks, the last one partial
    const index = await VectorIndex.create({
      name: 'truth',
      modelId: 'random-16',
      dims: 16,
      capacity: count,
      structure: 'int8',
      manifests: memoryManifestStore(),
    });
    const labels = index.add(
      Array.from({ length: count }, (_, i) => ({
        recordId: `r${i}`,
        contentHash: '0'.repeat(64),
        vector: unit(Array.from({ length: 16 }, () => rng() * 2 - 1)),
      })),
    );
    const whole = new FlatVectors(16, count);
    for (const label of labels) whole.set(label, index.vectorOf(label));
    const queries = sampleIndexes(count, 25, mulberry32(4)).map((i) => labels[i]!);
    const sample = sampleTruth(index, queries);
    expect(sample.queries).toEqual(queries);
    sample.queries.forEach((label, i) => {
      const expected = whole.search(index.vectorOf(label), 11);
      expect(sample.truth[i]!.map((h) => h.similarity)).toEqual(expected.map((h) => h.similarity));
      expect(new Set(sample.truth[i]!.map((h) => h.label))).toEqual(new Set(expected.map((h) => h.label)));
    });
    // The index scans its own vectors exactly: every sampled document finds its true neighbours.
    expect(measureIndexRecall(index, sample)).toBe(1);
  });
});
