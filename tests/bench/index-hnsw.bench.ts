/**
 * HNSW (hnswlib-wasm, cosine) over LexicalEmbedder vectors of real text at 10k and 100k chunks:
 * build time, query p50/p95 and recall@10 against exact search, for a few (M, efConstruction, ef)
 * settings; and the lexical embedder's throughput. The chosen setting per size is the default
 * (M, efConstruction) with the smallest ef reaching recall@10 >= 0.95.
 * Figures: index.hnsw.<size>.{build_s,query_p50_ms,query_p95_ms,recall_at_10} (chosen),
 * index.hnsw.<size>.grid.<setting>.* and index.lexical_embedder.texts_per_s.
 * BENCH_HNSW_SIZES (default 10000,100000), BENCH_HNSW_BUILDS, BENCH_HNSW_EFS and BENCH_HNSW_GRID=full
 * (the whole grid at 100k too) steer it.
 */
import type { HierarchicalNSW, HnswlibModule } from 'hnswlib-wasm';
import { FlatVectors } from '../../src/lib/core/index/exact';
import { measureRecall, sampleIndexes } from '../../src/lib/core/index/health';
import { lexicalVector } from '../../src/lib/models/lexical-embedder';
import { buildCorpus, evidenceRecall, missingData, mulberry32 } from '../factories/corpus';
import { isEntry, latencies, loadHnswlibInNode, now, runStandalone, timeQueries } from '../factories/corpus-bench';
import type { BenchContext, BenchModule, FigureSamples } from './harness';

interface Build {
  M: number;
  efConstruction: number;
}
const EFS = (process.env.BENCH_HNSW_EFS ?? '64,128,160,192,224,256,384').split(',').map(Number);
const DEFAULT_BUILD: Build = { M: 32, efConstruction: 200 };
const GRID: Build[] = [{ M: 16, efConstruction: 100 }, { M: 16, efConstruction: 200 }, DEFAULT_BUILD];

/** BENCH_HNSW_BUILDS="M:efC,M:efC" replaces the builds; by default 10k runs the grid, 100k the default. */
function buildsFor(size: number): Build[] {
  const env = process.env.BENCH_HNSW_BUILDS;
  if (env) return env.split(',').map((pair) => ({ M: Number(pair.split(':')[0]), efConstruction: Number(pair.split(':')[1]) }));
  return size >= 50_000 && process.env.BENCH_HNSW_GRID !== 'full' ? [DEFAULT_BUILD] : GRID;
}

const RECALL_QUERIES = 200;
const TARGET = 0.95;

function build(lib: HnswlibModule, vectors: readonly Float32Array[], b: Build): { index: HierarchicalNSW; seconds: number } {
  const index = new lib.HierarchicalNSW('cosine', vectors[0]!.length, '');
  const t0 = now();
  index.initIndex(vectors.length, b.M, b.efConstruction, 100);
  const batch = 1000;
  for (let start = 0; start < vectors.length; start += batch) {
    const slice = vectors.slice(start, start + batch);
    index.addPoints(
      slice as Float32Array[],
      slice.map((_, i) => start + i),
      false,
    );
  }
  return { index, seconds: (now() - t0) / 1000 };
}

function query(index: HierarchicalNSW, q: Float32Array, k: number): number[] {
  return index.searchKnn(q, k, undefined).neighbors;
}

export const bench: BenchModule = {
  name: 'index-hnsw',
  async run(ctx: BenchContext): Promise<FigureSamples[]> {
    const missing = missingData(ctx.dataDir);
    if (missing) {
      ctx.log(`skipped: ${missing}`);
      return [];
    }
    const lib = await loadHnswlibInNode();
    const figures: FigureSamples[] = [];
    const sizes = (process.env.BENCH_HNSW_SIZES ?? '10000,100000').split(',').map(Number);
    for (const size of sizes) {
      const label = `${size / 1000}k`;
      if (!ctx.wants(`index.hnsw.${label}`) && !ctx.wants('index.lexical_embedder')) continue;
      const corpus = buildCorpus(ctx.dataDir, size);
      const t0 = now();
      const vectors = corpus.docs.map((d) => lexicalVector(d.text));
      const textsPerS = size / ((now() - t0) / 1000);
      ctx.log(`${label}: lexical embedder ${textsPerS.toFixed(0)} texts/s`);
      if (size === sizes[0])
        figures.push({ name: 'index.lexical_embedder.texts_per_s', unit: 'texts/s', values: [textsPerS], meta: { docs: size, dims: 384 } });
      const queries = corpus.questions.map((q) => lexicalVector(q.question));
      const exact = new FlatVectors(384, size);
      vectors.forEach((v, i) => exact.set(i, v));
      const recallSample = sampleIndexes(queries.length, RECALL_QUERIES, mulberry32(11)).map((i) => queries[i]!);
      const truth = new Map(recallSample.map((q) => [q, exact.search(q, 10).map((h) => h.label)]));
      const exactTimes = recallSample.slice(0, 50).map((q) => {
        const t = now();
        exact.search(q, 10);
        return now() - t;
      });
      figures.push({
        name: `index.exact.${label}.query_p50_ms`,
        unit: 'ms',
        values: [latencies(exactTimes).p50],
        meta: { docs: size, dims: 384 },
      });
      const exactEvidence = evidenceRecall(
        corpus.questions,
        queries.map((q) => exact.search(q, 10).map((h) => corpus.docs[h.label]!.id)),
      );
      figures.push({
        name: `index.exact.${label}.evidence_recall_at_10`,
        unit: 'ratio',
        values: [exactEvidence],
        meta: { embedder: 'lexical-v1-384' },
      });
      const builds = buildsFor(size);
      let chosen: { build: Build; ef: number; build_s: number; p50: number; p95: number; recall: number } | null = null;
      for (const b of builds) {
        const built = build(lib, vectors, b);
        ctx.log(`${label}: built M ${b.M} efC ${b.efConstruction} in ${built.seconds.toFixed(1)} s`);
        for (const ef of EFS) {
          built.index.setEfSearch(ef);
          for (const q of queries.slice(0, 50)) query(built.index, q, 10); // warm-up
          const times = timeQueries(queries, (q) => query(built.index, q, 10));
          const { p50, p95 } = latencies(times);
          const recall = measureRecall(
            recallSample,
            (q, k) => query(built.index, q, k),
            (q) => truth.get(q)!,
            10,
          ).recall;
          const setting = `M${b.M}_efc${b.efConstruction}_ef${ef}`;
          ctx.log(`${label} ${setting}: p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, recall@10 ${recall.toFixed(3)}`);
          const meta = {
            docs: size,
            queries: queries.length,
            recallQueries: recallSample.length,
            ...b,
            ef,
            timing: 'median of 3 per query',
          };
          const grid = `index.hnsw.${label}.grid.${setting}`;
          figures.push(
            { name: `${grid}.build_s`, unit: 's', values: [built.seconds], meta },
            { name: `${grid}.query_p50_ms`, unit: 'ms', values: [p50], meta },
            { name: `${grid}.query_p95_ms`, unit: 'ms', values: [p95], meta },
            { name: `${grid}.recall_at_10`, unit: 'ratio', values: [recall], meta },
          );
          const isDefault = b.M === DEFAULT_BUILD.M && b.efConstruction === DEFAULT_BUILD.efConstruction;
          if (isDefault && (!chosen || (chosen.recall < TARGET && recall > chosen.recall)))
            chosen = { build: b, ef, build_s: built.seconds, p50, p95, recall };
        }
      }
      if (chosen) {
        const meta = { docs: size, ...chosen.build, ef: chosen.ef, target: TARGET };
        figures.push(
          { name: `index.hnsw.${label}.build_s`, unit: 's', values: [chosen.build_s], meta },
          { name: `index.hnsw.${label}.query_p50_ms`, unit: 'ms', values: [chosen.p50], meta },
          { name: `index.hnsw.${label}.query_p95_ms`, unit: 'ms', values: [chosen.p95], meta },
          { name: `index.hnsw.${label}.recall_at_10`, unit: 'ratio', values: [chosen.recall], meta },
        );
      }
    }
    return figures;
  },
};

if (isEntry(import.meta.url)) await runStandalone(bench);
