/**
 * Recall: query latency of the app's read path without an LLM at 100k chunks (the recall service
 * over the index service's BM25 and vector index in a fake-indexeddb vault, funnel on, package
 * assembled), and the LoCoMo evaluation's headline numbers (the same path). The vector index has the
 * app's structure for its size (model-index.ts `structureFor`: an int8 scan up to INT8_SCAN_UP_TO
 * vectors, so at 100k and 300k; HNSW above).
 * Figures: recall.100k.{query_p50_ms,query_p95_ms,build_s}, recall.100k.graph_walk_p95_ms (the entity
 * graph's personalized PageRank walk for each question), recall.100k.query_graph_on_p95_ms (the
 * whole query with the walk fused, weight 0.1), index.graph.100k.build_s (the entity graph built
 * from every chunk, as a load does), index.hints.100k.build_s (every chunk's hints, core/recall/hints.ts,
 * made as the index service makes them once a recall asks for hints), recall.100k.query_hints_on_p95_ms
 * (the questions asked once more with the hints on; they are off by default),
 * index.triples.100k.build_s (each chunk's first 300 characters read as a unit of its speaker by the
 * triple extractor, core/graph/triples.ts, and its triples written to the table) and recall.100k.query_triples_p95_ms
 * (the questions asked once more, the triple list, on by default, reading that table),
 * index.structure.100k.build_s (the GLOBAL view's structural index:
 * summaries, thread maps and entity communities, as the first GLOBAL or HYBRID recall builds it; the
 * bench vault is imported and indexed, not extracted, so it holds communities only), index.load.100k.node.seconds (the built index opened again from the
 * vault and its index cache, as a reload of the app does: BM25, vectors, entity graph; Node with
 * fake-indexeddb, not Chromium's IndexedDB), recall.100k.first_after_load_ms (one question asked
 * right after each of those reloads, while the index service still fills the int8 scan's column copy
 * in the background; the timed runs above start once it is filled) and
 * recall.locomo.<mode>.{recall_at_<k>,recall_at_budget_<b>,query_p95_ms}, and, only when `--only`
 * names them, recall.chromium.<size>.* (the same vault and questions in Chromium, chromiumFigures).
 * BENCH_RECALL_SIZE (default 100000; 300000 gives recall.300k.* and index.load.300k.node.seconds),
 * BENCH_RECALL_QUERIES (default 200), BENCH_RECALL_GRAPH=0 (skips graph_walk_p95_ms and query_graph_on_p95_ms), BENCH_RECALL_TRIPLES=0 (skips
 * index.triples.<size>.build_s and query_triples_p95_ms) and BENCH_RECALL_HNSW ("M:efConstruction", default 16:64; used
 * only where the structure is a graph: the product's 32:200 takes 6+ minutes per 100k here, so the
 * default builds a lighter graph and searches it with the product's ef) steer it.
 */
// fake-indexeddb and the importScripts shim hnswlib-wasm probes for (the runner loads them too).
import '../../src/cli/node-env';
import { existsSync, readFileSync } from 'node:fs';
import { EVAL_MODES } from '../../src/lib/core/recall/eval-locomo';
import { parseLocomo } from '../../src/lib/core/recall/locomo-data';
import { parsedEvents } from '../../src/lib/core/import/parsed-events';
import { loadHnswlibQuietly } from '../../src/cli/recall/hnswlib-node';
import { runLocomo } from '../../src/lib/services/eval/locomo';
import { EntityGraph } from '../../src/lib/core/graph/entity-graph';
import { linkEntities } from '../../src/lib/core/graph/entity-linker';
import { chunkMentions } from '../../src/lib/services/index/entity-links';
import { openInProcessIndex } from '../../src/lib/services/index/in-process';
import { runImport } from '../../src/lib/store/importer';
import { openVault } from '../../src/lib/store/vault';
import { locomoPath, missingData } from '../factories/corpus';
import { isEntry, latencies, now, runStandalone } from '../factories/corpus-bench';
import { nodeProfiled, type BenchContext, type BenchModule, type FigureSamples } from './harness';
import { benchConversations, sampleQuestions } from './recall-corpus';
import type { RecallBuild, RecallRun } from './recall.browser';

const SIZE = Number(process.env.BENCH_RECALL_SIZE ?? 100_000);
const QUERIES = Number(process.env.BENCH_RECALL_QUERIES ?? 200);
const [M, EFC] = (process.env.BENCH_RECALL_HNSW ?? '16:64').split(':').map(Number) as [number, number];
const label = SIZE % 1000 === 0 ? `${SIZE / 1000}k` : String(SIZE);

async function latencyFigures(ctx: BenchContext): Promise<FigureSamples[]> {
  await loadHnswlibQuietly();
  // Imported after the loader: the store's vector index imports hnswlib-wasm by its bare name.
  const { DEFAULT_HNSW } = await import('../../src/lib/store/vector-index');
  let t = now();
  const { conversations, corpus } = benchConversations(ctx.dataDir, SIZE);
  const vault = await openVault(`bench-recall-${process.pid}`);
  const report = await runImport(vault, [
    { name: 'bench', size: null, events: parsedEvents('bench.json', 'transcript', conversations, [], 0) },
  ]);
  const importS = (now() - t) / 1000;
  t = now();
  const index = await openInProcessIndex(vault, { hnsw: { M, efConstruction: EFC, ef: DEFAULT_HNSW.ef } });
  await index.runJobs();
  const buildS = (now() - t) / 1000;
  const units = index.service.parts.catalog.size;
  const structure = index.service.parts.indexes.serving.model!.index.structure;
  ctx.log(
    `${report.totals.messages.stored} messages imported in ${importS.toFixed(1)} s; ${units} chunks indexed in ${buildS.toFixed(1)} s (${structure === 'hnsw' ? `HNSW M ${M}, efC ${EFC}` : 'int8 scan'})`,
  );
  // The GLOBAL view's index (summaries, thread maps, entity communities), as the first GLOBAL or HYBRID recall builds it.
  t = now();
  const built = await index.service.structure.index();
  const structureS = (now() - t) / 1000;
  ctx.log(`structural index: ${JSON.stringify(built.counts())} in ${structureS.toFixed(1)} s`);
  // The int8 scan's column copy, which the index service fills in the background after a load or
  // the first sparse query: the timed runs measure the settled read path (the first recall after a
  // reload, with the copy still filling, is timed apart below: first_after_load_ms).
  t = now();
  await index.service.scanColumnsSettled();
  ctx.log(`column copy filled in ${((now() - t) / 1000).toFixed(2)} s`);
  const recaller = index.recaller();
  const questions = sampleQuestions(corpus, QUERIES);
  const p50: number[] = [];
  const p95: number[] = [];
  for (let run = 0; run < ctx.runs; run++) {
    const samples: number[] = [];
    await nodeProfiled(`recall.${label}.run${run + 1}`, async () => {
      for (const question of questions) {
        const started = now();
        const outcome = await recaller.answer({ prompt: question }, { now: Date.UTC(2025, 0, 1), writeBack: false });
        samples.push(now() - started);
        if (!outcome.ok) throw new Error(outcome.error.message);
      }
    });
    const l = latencies(samples);
    p50.push(l.p50);
    p95.push(l.p95);
    ctx.log(`run ${run + 1}: p50 ${l.p50.toFixed(1)} ms, p95 ${l.p95.toFixed(1)} ms over ${samples.length} queries`);
  }
  // The hints of every chunk (core/recall/hints.ts), made as the index service makes them once a recall
  // asks for hints: after the default runs, which neither make nor hold them (as in the app).
  t = now();
  await index.service.hints.settled();
  const hintsS = (now() - t) / 1000;
  ctx.log(`hints: ${JSON.stringify(index.service.hints.progress)} in ${hintsS.toFixed(1)} s`);
  // The same questions with the hints searched, once.
  const withHints: number[] = [];
  for (const question of questions) {
    const started = now();
    const outcome = await recaller.answer({ prompt: question }, { now: Date.UTC(2025, 0, 1), writeBack: false, hints: true });
    withHints.push(now() - started);
    if (!outcome.ok) throw new Error(outcome.error.message);
  }
  ctx.log(`queries with the hints on: p50 ${latencies(withHints).p50.toFixed(1)} ms, p95 ${latencies(withHints).p95.toFixed(1)} ms`);
  // The triples (services/index/triples.ts), as extraction writes them for its units: here each chunk's
  // first 300 characters are read as one unit of its speaker (the bench vault is imported, not
  // extracted), which gives about as many triples per chunk as LoCoMo's extracted units give per turn
  // (0.6 here, 0.8 there; only their first sentence gave 0.15). Then the same questions once more, the triple list
  // reading them (it runs by default; over the empty table above it found nothing).
  // BENCH_RECALL_TRIPLES=0 skips them (about 16 minutes at 300k chunks: index.triples.100k.build_s was 319 s).
  const skipTriples = process.env.BENCH_RECALL_TRIPLES === '0';
  t = now();
  const { extractTriples } = await import('../../src/lib/core/graph/triples');
  const { storedTriple } = await import('../../src/lib/services/index/triples');
  const { chunkSpeaker } = await import('../../src/lib/services/index/entity-links');
  let triples = 0;
  let parseMs = 0;
  for await (const page of skipTriples ? [] : index.service.parts.chunks.pages()) {
    const parsing = now();
    const rows = page.flatMap((chunk) =>
      extractTriples(chunk.text.slice(0, 300), chunkSpeaker(chunk)).map((tr, i) =>
        storedTriple(
          {
            noteId: `bench-${chunk.id}`,
            conversationId: chunk.conversationId,
            messageId: chunk.messageIds[0] ?? null,
            noteHash: chunk.contentHash,
          },
          tr,
          i,
        ),
      ),
    );
    parseMs += now() - parsing;
    await vault.db.triples.bulkPut(rows);
    triples += rows.length;
  }
  const triplesS = (now() - t) / 1000;
  const withTriples: number[] = [];
  for (const question of skipTriples ? [] : questions) {
    const started = now();
    const outcome = await recaller.answer({ prompt: question }, { now: Date.UTC(2025, 0, 1), writeBack: false });
    withTriples.push(now() - started);
    if (!outcome.ok) throw new Error(outcome.error.message);
  }
  if (!skipTriples)
    ctx.log(
      `triples: ${triples} from ${units} chunks in ${triplesS.toFixed(1)} s (parsing ${(parseMs / 1000).toFixed(1)} s); queries reading them: p50 ${latencies(withTriples).p50.toFixed(1)} ms, p95 ${latencies(withTriples).p95.toFixed(1)} ms`,
    );
  // The entity graph: built from every chunk as a load does, then walked from each question's entities.
  t = now();
  const graph = new EntityGraph();
  for await (const page of index.service.parts.chunks.pages()) for (const chunk of page) graph.set(chunk.id, chunkMentions(chunk));
  const graphS = (now() - t) / 1000;
  // BENCH_RECALL_GRAPH=0 skips the walks and the queries with the walk fused (off in the app; over a second each at 100k).
  const skipGraph = process.env.BENCH_RECALL_GRAPH === '0';
  const walks: number[] = [];
  for (const question of skipGraph ? [] : questions) {
    const started = now();
    graph.walk(
      linkEntities(question).map((m) => m.key),
      60,
    );
    walks.push(now() - started);
  }
  const withGraph: number[] = [];
  for (const question of skipGraph ? [] : questions) {
    const started = now();
    const outcome = await recaller.answer({ prompt: question }, { now: Date.UTC(2025, 0, 1), writeBack: false, graph: 0.1 });
    withGraph.push(now() - started);
    if (!outcome.ok) throw new Error(outcome.error.message);
  }
  ctx.log(
    `entity graph: ${graph.entityCount} linked entities over ${graph.documentCount} documents in ${graphS.toFixed(1)} s; walk p95 ${walks.length ? latencies(walks).p95.toFixed(2) : '(skipped)'} ms; query with the walk fused p95 ${withGraph.length ? latencies(withGraph).p95.toFixed(1) : '(skipped)'} ms`,
  );
  index.close();
  // A reload: the same vault and index cache opened again, nothing queued; then one question asked
  // at once (each reload a different one), as a person who reopens the app and asks: the int8 scan's
  // column copy is still being filled in the background then.
  const loads: number[] = [];
  const firstAfterLoad: number[] = [];
  for (let run = 0; run < ctx.runs; run++) {
    t = now();
    const again = await openInProcessIndex(vault, { rebuild: false, hnsw: { M, efConstruction: EFC, ef: DEFAULT_HNSW.ef } });
    loads.push((now() - t) / 1000);
    const loaded = again.service.parts.indexes.serving.model!.index;
    if (loaded.count !== units) throw new Error(`the reloaded index holds ${loaded.count} vectors, not ${units}`);
    t = now();
    const first = await nodeProfiled(`recall.${label}.first_after_load${run + 1}`, () =>
      again.recaller().answer({ prompt: questions[run % questions.length]! }, { now: Date.UTC(2025, 0, 1), writeBack: false }),
    );
    firstAfterLoad.push(now() - t);
    if (!first.ok) throw new Error(first.error.message);
    await again.service.scanColumnsSettled();
    again.close();
  }
  ctx.log(
    `index load: ${loads.map((s) => s.toFixed(1)).join(', ')} s; first recall after it: ${firstAfterLoad.map((ms) => ms.toFixed(0)).join(', ')} ms`,
  );
  await vault.db.delete();
  const meta = {
    units,
    queries: questions.length,
    structure,
    ...(structure === 'hnsw' ? { hnsw: { M, efConstruction: EFC, ef: DEFAULT_HNSW.ef } } : {}),
    funnel: true,
    llm: null,
  };
  return [
    { name: `recall.${label}.query_p50_ms`, unit: 'ms', values: p50, meta },
    { name: `recall.${label}.query_p95_ms`, unit: 'ms', values: p95, meta },
    { name: `recall.${label}.build_s`, unit: 's', values: [buildS], meta },
    ...(walks.length ? [{ name: `recall.${label}.graph_walk_p95_ms`, unit: 'ms', values: [latencies(walks).p95], meta }] : []),
    ...(withGraph.length ? [{ name: `recall.${label}.query_graph_on_p95_ms`, unit: 'ms', values: [latencies(withGraph).p95], meta }] : []),
    { name: `index.graph.${label}.build_s`, unit: 's', values: [graphS], meta },
    { name: `index.hints.${label}.build_s`, unit: 's', values: [hintsS], meta: { ...meta, hints: index.service.hints.progress } },
    { name: `recall.${label}.query_hints_on_p95_ms`, unit: 'ms', values: [latencies(withHints).p95], meta: { ...meta, hints: true } },
    ...(skipTriples
      ? []
      : [
          { name: `index.triples.${label}.build_s`, unit: 's', values: [triplesS], meta: { ...meta, triples } },
          { name: `recall.${label}.query_triples_p95_ms`, unit: 'ms', values: [latencies(withTriples).p95], meta: { ...meta, triples } },
        ]),
    { name: `index.structure.${label}.build_s`, unit: 's', values: [structureS], meta: { ...meta, units: built.counts() } },
    { name: `index.load.${label}.node.seconds`, unit: 's', values: loads, meta: { ...meta, store: 'fake-indexeddb (Node)' } },
    {
      name: `recall.${label}.first_after_load_ms`,
      unit: 'ms',
      values: firstAfterLoad,
      meta: { ...meta, store: 'fake-indexeddb (Node)', when: 'the first question right after each reload' },
    },
  ];
}

/**
 * The same questions over the same vault in Chromium (recall.browser.ts): imported into the page's
 * IndexedDB and indexed by the index service in the page, as the app's index worker holds it. The
 * vault's rows live in IndexedDB, out of the JavaScript heap, as in the app. In Node, fake-indexeddb
 * keeps them in the heap that also holds the index (850 MB at 100k chunks), and each young-generation
 * collection walks every page of the old generation to find the ones that point into the young
 * one: 3.5 ms a collection at 100k, 8-10 ms at 300k (a Linux perf profile of the Node queries at
 * 100k put 4 % of all samples in that walk). In the page, collections cost little (0.04 s of a 6.1 s
 * profile of 200 queries at 300k); the rows come from IndexedDB instead, a round trip per read.
 * One full collection in the page after the build (the import's garbage, which a person's browser
 * collects long before they ask), then `ctx.runs` passes over the questions, each followed by a full
 * collection and a reading of the page's heap (`heap_mb`: what the index and the recall path keep).
 * Figures: recall.chromium.<size>.{query_p50_ms,query_p95_ms,build_s,heap_mb}; only with `--only`
 * naming them, e.g. `BENCH_RECALL_SIZE=300000 npm run bench -- --only recall.chromium.300k --runs 3`.
 */
async function chromiumFigures(ctx: BenchContext): Promise<FigureSamples[]> {
  const { conversations, corpus } = benchConversations(ctx.dataDir, SIZE);
  const questions = sampleQuestions(corpus, QUERIES);
  const browser = await ctx.browser();
  const BATCH = 500;
  for (let i = 0; i < conversations.length; i += BATCH) {
    await browser.run('recallAdd', { conversations: conversations.slice(i, i + BATCH) });
  }
  conversations.length = 0;
  const built = await browser.run<RecallBuild>('recallBuild');
  ctx.log(
    `Chromium: ${built.messages} messages imported in ${built.importS.toFixed(1)} s; ${built.units} chunks indexed in ${built.buildS.toFixed(1)} s (${built.structure})`,
  );
  await browser.collectGarbage();
  const p50: number[] = [];
  const p95: number[] = [];
  const heap: number[] = [];
  try {
    for (let run = 0; run < ctx.runs; run++) {
      const { samples } = await browser.run<RecallRun>('recallQueries', { questions });
      await browser.collectGarbage();
      const heapMb = await browser.run<number>('recallHeap');
      const l = latencies(samples);
      p50.push(l.p50);
      p95.push(l.p95);
      if (heapMb !== null) heap.push(heapMb);
      ctx.log(
        `Chromium run ${run + 1}: p50 ${l.p50.toFixed(1)} ms, p95 ${l.p95.toFixed(1)} ms over ${samples.length} queries; page heap ${heapMb?.toFixed(0) ?? '?'} MB`,
      );
    }
  } finally {
    await browser.run('recallClose');
  }
  const meta = {
    units: built.units,
    queries: questions.length,
    structure: built.structure,
    funnel: true,
    llm: null,
    store: 'IndexedDB (Chromium, on disk)',
    thread: 'page main thread (the app runs the same code in its index worker)',
  };
  const prefix = `recall.chromium.${label}`;
  return [
    { name: `${prefix}.query_p50_ms`, unit: 'ms', values: p50, meta },
    { name: `${prefix}.query_p95_ms`, unit: 'ms', values: p95, meta },
    { name: `${prefix}.build_s`, unit: 's', values: [built.importS + built.buildS], meta: { ...meta, importS: built.importS } },
    ...(heap.length ? [{ name: `${prefix}.heap_mb`, unit: 'MB', values: heap, meta }] : []),
  ];
}

/** Deterministic numbers: one run is enough (latency p95 comes along, for the small per-sample vaults). */
async function locomoFigures(ctx: BenchContext): Promise<FigureSamples[]> {
  const parsed = parseLocomo(JSON.parse(readFileSync(locomoPath(ctx.dataDir), 'utf8')));
  if (!parsed.ok) throw new Error(parsed.error.message);
  const { report } = await runLocomo(parsed.value);
  const meta = {
    embedder: report.embedder,
    questions: report.questions,
    vectors: 'hnsw',
    recency: 'off',
    path: 'index service + recall service',
  };
  const figures: FigureSamples[] = [];
  for (const mode of EVAL_MODES) {
    const m = report.modes[mode]!;
    for (const [k, v] of Object.entries(m.recallAtK))
      figures.push({ name: `recall.locomo.${mode}.recall_at_${k}`, unit: 'share', values: [v], meta });
    for (const [b, v] of Object.entries(m.recallAtBudget))
      figures.push({ name: `recall.locomo.${mode}.recall_at_budget_${b}`, unit: 'share', values: [v], meta });
    figures.push({ name: `recall.locomo.${mode}.query_p95_ms`, unit: 'ms', values: [m.latencyMs.p95], meta });
  }
  figures.push({
    name: 'recall.locomo.unanswerable.holds_nothing_rate',
    unit: 'share',
    values: [report.unanswerable.holdsNothingRate],
    meta,
  });
  return figures;
}

export const bench: BenchModule = {
  name: 'recall',
  async run(ctx) {
    const missing = missingData(ctx.dataDir) ?? (existsSync(locomoPath(ctx.dataDir)) ? null : 'LoCoMo not found');
    if (missing) {
      ctx.log(`skipped: ${missing}`);
      return [];
    }
    const figures: FigureSamples[] = [];
    if (ctx.wants('recall.locomo')) figures.push(...(await locomoFigures(ctx)));
    if (ctx.wants(`recall.${label}`)) figures.push(...(await latencyFigures(ctx)));
    // Only when named: the import and index build in Chromium add minutes (7 at 300k) to a full run.
    if (ctx.asked(`recall.chromium.${label}`)) figures.push(...(await chromiumFigures(ctx)));
    return figures;
  },
};

if (isEntry(import.meta.url)) await runStandalone(bench);
