/**
 * Predictive prefetch on a replay of LoCoMo question sequences in dialogue order (each sample's
 * questions sorted by their first evidence turn), through the app's path: the index service, the
 * recall service with prefetch on, and the model stages (intent, decomposition, fit-gate) on a local
 * fake OpenAI-compatible server that answers from the evidence with seeded noise
 * (tests/factories/fake-openai-server.ts). Not a test and not a `*.bench.ts` module (it takes
 * minutes); run it by hand:
 *
 *   npx tsx --import ./scripts/node-resolve.js tests/bench/prefetch-replay.ts [locomo.json] [--samples N] [--questions N]
 *       [--think-s 30] [--delays 800,2000,5000] [--sleep] [--hits]
 *
 * Time: a small local model's latency per call (intent, decomposition, fit-gate; default 0.8 / 2 /
 * 5 s, e.g. a 1.5B model at Q4 on a laptop CPU) is modeled from each recall's trace (which stages
 * called the model) and added to the measured compute time; intent and decomposition run in
 * parallel, so the larger of the two counts. The person's clock advances by the answer's latency
 * plus `--think-s` between questions (the cache's TTL is read against it), and the background
 * finishes its guesses before the next question (the modeled background time per question is
 * reported, to check it fits the think time). `--sleep` makes the fake server really wait the delays
 * instead and measures wall time (slow: use it on a few questions to check the model). A hit's
 * latency is its measured time only (its model calls were made in the background); `--hits` prints
 * each hit with the guess it was computed for.
 *
 * The fake server keeps a memory in the fit-gate only when it holds the evidence of a LoCoMo question
 * whose text equals the prompt (after lowercasing and dropping punctuation): a guess that is not
 * word for word a question of the file gets "keep nothing". The recall@10 difference of hits is
 * therefore a property of the fake, not of prefetch, unless the guess's text is the question's.
 */
import '../../src/cli/node-env';
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { StageBreakers } from '../../src/lib/core/breaker/circuit-breaker';
import { recallAtK } from '../../src/lib/core/recall/eval-metrics';
import { normalizeEvidenceIds, parseLocomo, type LocomoSample } from '../../src/lib/core/recall/locomo-data';
import type { RecallResult } from '../../src/lib/core/recall/types';
import { OpenAiCompatibleLlm } from '../../src/lib/models/openai-compatible-llm';
import { loadHnswlibQuietly } from '../../src/cli/recall/hnswlib-node';
import { importSample } from '../../src/lib/services/eval/locomo-vault';
import { openInProcessIndex } from '../../src/lib/services/index/in-process';
import { startFakeOpenAi } from '../factories/fake-openai-server';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    samples: { type: 'string' },
    questions: { type: 'string' },
    'think-s': { type: 'string', default: '30' },
    delays: { type: 'string', default: '800,2000,5000' },
    sleep: { type: 'boolean', default: false },
    noise: { type: 'string', default: '0.1' },
    hits: { type: 'boolean', default: false },
  },
});
const file = positionals[0] ?? '../shared/data/locomo/locomo-dev.json';
const [intentMs, decomposeMs, gateMs] = values.delays!.split(',').map(Number) as [number, number, number];
const thinkMs = Number(values['think-s']) * 1000;
const sleep = values.sleep === true;

/** Model time of one recall from its trace: the calls a real model would have made, and how long they take. */
function modeledMs(result: RecallResult): number {
  if (sleep) return 0;
  const called = (stage: keyof RecallResult['stages']) => {
    const o = result.stages[stage].outcome;
    return o === 'ok' || o === 'failed';
  };
  return Math.max(called('intent') ? intentMs : 0, called('decompose') ? decomposeMs : 0) + (called('fit-gate') ? gateMs : 0);
}

/** Position of a question in the dialogue: its first evidence turn (session, turn); unknown at the end. */
function dialogueOrder(sample: LocomoSample): LocomoSample['qa'] {
  const at = (qa: LocomoSample['qa'][number]) => {
    const ids = normalizeEvidenceIds(qa.evidence)
      .ids.map((id) => /^D(\d+):(\d+)$/u.exec(id))
      .filter((m) => m !== null);
    return ids.length ? Math.min(...ids.map((m) => Number(m![1]) * 10_000 + Number(m![2]))) : Number.POSITIVE_INFINITY;
  };
  return [...sample.qa]
    .map((qa, i) => ({ qa, i, at: at(qa) }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((x) => x.qa);
}

interface SampleRow {
  sample: string;
  questions: number;
  hits: number;
  bySource: Record<string, number>;
  withoutMs: number[];
  withMs: number[];
  backgroundMs: number[];
  recallDelta: number[];
}

async function replay(sample: LocomoSample, limit: number | null): Promise<SampleRow> {
  const server = await startFakeOpenAi({
    samples: [sample],
    noise: Number(values.noise),
    seed: 5,
    ...(sleep ? { delayMs: { intent: intentMs, decompose: decomposeMs, gate: gateMs } } : {}),
  });
  const { vault, diaIdOf } = await importSample(sample);
  const index = await openInProcessIndex(vault, { vectorSearch: 'hnsw' });
  try {
    await index.runJobs();
    let clock = Date.parse('2024-01-01T09:00:00Z');
    const llm = new OpenAiCompatibleLlm({ baseUrl: server.url, model: 'fake-small' });
    const service = index.recaller({ llm: () => llm, breakers: new StageBreakers({ now: () => clock }), now: () => clock, prefetch: {} });
    const cold = index.recaller({ llm: () => llm, breakers: new StageBreakers({ now: () => clock }), now: () => clock });
    const prefetcher = service.prefetch!.prefetcher;
    const row: SampleRow = {
      sample: sample.sample_id,
      questions: 0,
      hits: 0,
      bySource: {},
      withoutMs: [],
      withMs: [],
      backgroundMs: [],
      recallDelta: [],
    };
    const items = (r: RecallResult) =>
      r.items.map((c) => ({ diaIds: c.record.messageIds.flatMap((id) => diaIdOf.get(id) ?? []), tokens: c.record.tokenCount }));
    const questions = dialogueOrder(sample).slice(0, limit ?? undefined);
    for (const qa of questions) {
      const before = prefetcher.stats.computed;
      const t0 = performance.now();
      const answer = await service.answer({ prompt: qa.question }, { writeBack: false });
      const measured = performance.now() - t0;
      if (!answer.ok) throw new Error(answer.error.message);
      const result = answer.value.result;
      row.questions += 1;
      // A hit's trace is the background computation's: its model calls were made then, not now.
      const latency = measured + (result.prefetch ? 0 : modeledMs(result));
      row.withMs.push(latency);
      if (result.prefetch) {
        row.hits += 1;
        row.bySource[result.prefetch.source] = (row.bySource[result.prefetch.source] ?? 0) + 1;
        if (values.hits)
          console.log(
            `hit (category ${qa.category}, ${result.prefetch.source}): "${qa.question}" <- computed for "${result.prefetch.computedFor}"`,
          );
        // What it would have cost without the cache, and whether the cached answer is as good.
        const fresh = await cold.answer({ prompt: qa.question }, { writeBack: false });
        if (!fresh.ok) throw new Error(fresh.error.message);
        row.withoutMs.push(result.prefetch.savedMs + modeledMs(fresh.value.result));
        const evidence = normalizeEvidenceIds(qa.evidence).ids;
        if (qa.category !== 5 && evidence.length) {
          row.recallDelta.push(recallAtK(evidence, items(result), 10) - recallAtK(evidence, items(fresh.value.result), 10));
        }
      } else {
        row.withoutMs.push(latency);
      }
      // The person reads and types the next question; the background computes its guesses meanwhile.
      const bg0 = performance.now();
      await prefetcher.idle();
      const computed = prefetcher.stats.computed - before;
      const backgroundModel = sleep ? 0 : computed * (Math.max(intentMs, decomposeMs) + gateMs);
      row.backgroundMs.push(performance.now() - bg0 + backgroundModel);
      clock += Math.round(latency) + thinkMs;
    }
    return row;
  } finally {
    index.close();
    await vault.db.delete();
    await server.close();
  }
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const pct = (xs: readonly number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const sec = (ms: number) => (ms / 1000).toFixed(1);

async function main(): Promise<void> {
  if (!existsSync(file)) throw new Error(`${file} not found (LoCoMo lives in ../shared/data/locomo/).`);
  const parsed = parseLocomo(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.ok) throw new Error(parsed.error.message);
  await loadHnswlibQuietly();
  const samples = parsed.value.slice(0, values.samples ? Number(values.samples) : undefined);
  const limit = values.questions ? Number(values.questions) : null;
  const rows: SampleRow[] = [];
  console.log(
    `Prefetch replay: ${samples.length} LoCoMo conversations, questions in dialogue order; model time ${sleep ? 'slept by the fake server' : 'modeled'} ` +
      `(intent ${intentMs} ms, decomposition ${decomposeMs} ms, fit-gate ${gateMs} ms); think time ${thinkMs / 1000} s; TTL 300 s; K 8; 4 guesses per recall\n`,
  );
  console.log(
    '| conversation | questions | hits | hit rate | time without prefetch | with | saved | p95 without / with | background per question (p50 / p95) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const sample of samples) {
    const r = await replay(sample, limit);
    rows.push(r);
    console.log(
      `| ${r.sample} | ${r.questions} | ${r.hits} | ${((r.hits / r.questions) * 100).toFixed(1)} % | ${sec(sum(r.withoutMs))} s | ${sec(sum(r.withMs))} s | ` +
        `${sec(sum(r.withoutMs) - sum(r.withMs))} s | ${sec(pct(r.withoutMs, 95))} / ${sec(pct(r.withMs, 95))} s | ${sec(pct(r.backgroundMs, 50))} / ${sec(pct(r.backgroundMs, 95))} s |`,
    );
  }
  const all = (f: (r: SampleRow) => number[]) => rows.flatMap(f);
  const questions = sum(rows.map((r) => r.questions));
  const hits = sum(rows.map((r) => r.hits));
  const sources: Record<string, number> = {};
  for (const r of rows) for (const [s, n] of Object.entries(r.bySource)) sources[s] = (sources[s] ?? 0) + n;
  const deltas = all((r) => r.recallDelta);
  console.log(
    `| **all** | ${questions} | ${hits} | ${((hits / questions) * 100).toFixed(1)} % | ${sec(sum(all((r) => r.withoutMs)))} s | ${sec(sum(all((r) => r.withMs)))} s | ` +
      `${sec(sum(all((r) => r.withoutMs)) - sum(all((r) => r.withMs)))} s | ${sec(
        pct(
          all((r) => r.withoutMs),
          95,
        ),
      )} / ${sec(
        pct(
          all((r) => r.withMs),
          95,
        ),
      )} s | ` +
      `${sec(
        pct(
          all((r) => r.backgroundMs),
          50,
        ),
      )} / ${sec(
        pct(
          all((r) => r.backgroundMs),
          95,
        ),
      )} s |`,
  );
  console.log(`\nHits by guess: ${JSON.stringify(sources)}`);
  console.log(
    `Recall@10 of a hit against the same question computed fresh (answerable hits): mean difference ${deltas.length ? (sum(deltas) / deltas.length).toFixed(3) : '-'} over ${deltas.length} hits; ` +
      `worse on ${deltas.filter((d) => d < 0).length}, better on ${deltas.filter((d) => d > 0).length}`,
  );
}

await main();
