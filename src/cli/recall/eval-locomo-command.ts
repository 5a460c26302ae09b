/**
 * `eval locomo <file> [--k 5,10] [--budget 500,1000] [--json] [--modes ...] [--vectors ...]
 * [--recency on|off] [--samples id,id] [--by-sample] [--extract] [--hints on|off|W] [--triples W]`: evidence recall of the app's read path on LoCoMo (the
 * index service and the recall service, services/eval/locomo.ts), per mode and category, with
 * latency. JSON is the report shape of the issue, exactly.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { RerankerModelSpec } from '../../lib/core/api/reranker';
import { StageBreakers } from '../../lib/core/breaker/circuit-breaker';
import type { ModelStageReport, StageFigures } from '../../lib/core/recall/eval-models';
import { OpenAiCompatibleLlm } from '../../lib/models/openai-compatible-llm';
import { TransformersReranker } from '../../lib/models/transformers-reranker';
import { vaultError, VaultFailure } from '../../lib/core/errors';
import { EVAL_MODES, type EvalMode, type LocomoReport, type SampleFigures } from '../../lib/core/recall/eval-locomo';
import { parseLocomo } from '../../lib/core/recall/locomo-data';
import type { CommandResult } from '../command';
import { UsageError } from '../command';
import { intList, oneOf, parseCommandArgs } from './args';
import { RECENCY_FOR_ARCHIVES, runLocomo } from '../../lib/services/eval/locomo';
import { loadHnswlibQuietly } from './hnswlib-node';

export const EVAL_LOCOMO_USAGE =
  'eval locomo <locomo.json> [--k 5,10] [--budget 500,1000] [--modes bm25,vector,hybrid,funnel] [--vectors exact|hnsw|auto] [--recency on|off] [--samples id,...] [--by-sample] [--extract] [--hints on|off|W] [--triples W] [--json]\n' +
  '  [--llm-endpoint http://127.0.0.1:PORT [--model NAME] [--gate-timeout-ms N]] [--reranker PATH]: the model stages in the funnel mode\n' +
  '  (intent, decomposition and fit-gate through a local OpenAI-compatible server; a cross-encoder from a folder), with their figures';

/** A cross-encoder folder as the CLI names it (the folder holding config.json and onnx/). */
async function loadReranker(path: string): Promise<TransformersReranker> {
  const folder = resolve(path);
  if (!existsSync(join(folder, 'config.json')))
    throw new UsageError(`--reranker names a folder holding config.json and onnx/ (not found in ${folder}).`);
  const dtype = existsSync(join(folder, 'onnx', 'model_quantized.onnx')) ? 'q8' : 'fp32';
  const spec: RerankerModelSpec = { modelId: basename(folder), dtype };
  return TransformersReranker.load({ model: spec, source: { kind: 'local', path: dirname(folder) } });
}

function modesOf(value: string | undefined): EvalMode[] {
  if (value === undefined) return [...EVAL_MODES];
  const modes = value.split(',').map((m) => m.trim());
  const bad = modes.filter((m) => !(EVAL_MODES as readonly string[]).includes(m));
  if (bad.length > 0 || modes.length === 0) throw new UsageError(`--modes takes ${EVAL_MODES.join(', ')} (got ${bad.join(', ')}).`);
  return [...new Set(modes)] as EvalMode[];
}

/** `--hints on` searches the hints at their weight, `--hints 0.5` at that one; off (the default) leaves them out (the funnel mode only). */
function hintsOf(value: string | undefined): number | boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'off') return false;
  if (value === 'on') return true;
  const weight = Number(value);
  if (!Number.isFinite(weight) || weight < 0) throw new UsageError(`--hints takes on, off or a weight (0 or more) (got ${value}).`);
  return weight;
}

/** `--triples 0.5`: the triple list at that weight (it needs `--extract`: the triples are the extracted units'). */
function triplesOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const weight = Number(value);
  if (!Number.isFinite(weight) || weight < 0) throw new UsageError(`--triples takes a weight (0 or more) (got ${value}).`);
  return weight;
}

async function readSamples(file: string, only: string | undefined) {
  const text = await readFile(file, 'utf8').catch(() => {
    throw new VaultFailure(vaultError('input/invalid', `Cannot read ${file}: LoCoMo lives in ../shared/data/locomo/ (never in the repo).`));
  });
  const parsed = parseLocomo(JSON.parse(text) as unknown);
  if (!parsed.ok) throw new VaultFailure(parsed.error);
  if (!only) return parsed.value;
  const ids = new Set(only.split(',').map((s) => s.trim()));
  const chosen = parsed.value.filter((s) => ids.has(s.sample_id));
  if (chosen.length === 0) throw new UsageError(`No sample matches --samples ${only}.`);
  return chosen;
}

export async function runEvalLocomo(argv: readonly string[]): Promise<CommandResult> {
  const { values, positionals } = parseCommandArgs(argv, {
    k: { type: 'string' },
    budget: { type: 'string' },
    modes: { type: 'string' },
    vectors: { type: 'string' },
    recency: { type: 'string' },
    extract: { type: 'boolean' },
    hints: { type: 'string' },
    triples: { type: 'string' },
    samples: { type: 'string' },
    'by-sample': { type: 'boolean' },
    'llm-endpoint': { type: 'string' },
    model: { type: 'string' },
    'gate-timeout-ms': { type: 'string' },
    reranker: { type: 'string' },
  });
  const file = positionals[1];
  if (!file) throw new UsageError('Give the LoCoMo JSON file to evaluate on.');
  const ks = intList(values.k, [5, 10], 'k');
  const budgets = intList(values.budget, [500, 1000], 'budget');
  const vectors = oneOf(values.vectors, ['exact', 'hnsw', 'auto'] as const, 'hnsw', 'vectors');
  const recency = oneOf(values.recency, ['on', 'off'] as const, RECENCY_FOR_ARCHIVES ? 'on' : 'off', 'recency') === 'on';
  const modes = modesOf(values.modes);
  const hints = hintsOf(values.hints);
  const triples = triplesOf(values.triples);
  if (values.model !== undefined && !values['llm-endpoint']) throw new UsageError('--model needs --llm-endpoint.');
  const gateTimeoutMs =
    values['gate-timeout-ms'] === undefined ? undefined : intList(values['gate-timeout-ms'], [15_000], 'gate-timeout-ms')[0];
  const samples = await readSamples(file, values.samples);
  const llm = values['llm-endpoint']
    ? new OpenAiCompatibleLlm({ baseUrl: values['llm-endpoint'], model: values.model ?? 'default' })
    : null;
  const reranker = values.reranker ? await loadReranker(values.reranker) : null;
  const models =
    llm || reranker
      ? { llm, reranker, breakers: new StageBreakers({ now: () => Date.now() }), ...(gateTimeoutMs ? { gateTimeoutMs } : {}) }
      : undefined;
  await loadHnswlibQuietly();
  const started = performance.now();
  const extract = values.extract === true;
  const run = await runLocomo(samples, {
    ks,
    budgets,
    modes,
    vectors,
    recency,
    extract,
    ...(hints !== undefined || triples !== undefined
      ? { recall: { ...(hints !== undefined ? { hints } : {}), ...(triples !== undefined ? { triples } : {}) } }
      : {}),
    ...(models ? { models } : {}),
  });
  const { report, diagnostics, vectors: used } = run;
  const seconds = (performance.now() - started) / 1000;
  const settings = `${samples.length} samples; embedder ${report.embedder}; vectors ${used}; recency ${recency ? 'on' : 'off'}${extract ? '; extracted (rule-based) before indexing' : ''}${hints ? `; hints ${hints === true ? 'on' : `weight ${hints}`}` : ''}${triples !== undefined ? `; triples weight ${triples}` : ''}; ${seconds.toFixed(1)} s`;
  const notes = [
    `${diagnostics.skippedQuestions} answerable questions skipped (no resolvable evidence); unreadable evidence ids: ${diagnostics.malformedEvidence.map((m) => JSON.stringify(m)).join(', ') || 'none'}`,
  ];
  await reranker?.dispose();
  // --by-sample: the figures per conversation too (`bySample` in the JSON), to check a change helps each one.
  const bySample = values['by-sample'] === true ? diagnostics.bySample : null;
  const text = [formatLocomoReport(report, ks, budgets, [settings, ...notes]), ...(bySample ? formatBySample(bySample, ks, budgets) : [])];
  const json = bySample ? { ...report, bySample } : report;
  if (!run.models) return { json, text: text.join('\n') };
  const { stages, ...summary } = run.models;
  return {
    json: { ...json, models: summary, stages },
    text: [...text, ...formatModelStages(run.models)].join('\n'),
  };
}

const ms = (x: number | null) => (x === null ? '-' : x.toFixed(0));
const rate = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)} %`);

/** The model stages' figures as text (the JSON has them as `models` and `stages`). */
export function formatModelStages(m: ModelStageReport): string[] {
  const row = (name: string, f: StageFigures) =>
    `  ${name.padEnd(10)} ${String(f.calls).padStart(6)} ${String(f.failures).padStart(8)} ${String(f.skipped).padStart(8)} ${String(f.breakerOpened).padStart(8)} ${ms(f.p50Ms).padStart(7)} ${ms(f.p95Ms).padStart(7)}`;
  const g = m.gate;
  return [
    `Model stages (funnel mode only; the other modes ran without models): LLM ${m.llm ?? 'none'}; reranker ${m.reranker ?? 'none'}`,
    '  stage       calls failures  skipped  opened  p50 ms  p95 ms',
    row('intent', m.stages.intent),
    row('decompose', m.stages.decompose),
    row('gate', m.stages.gate),
    row('rerank', m.stages.rerank),
    `Fit-gate against the evidence: ${g.judged} candidates judged; agreement ${rate(g.agreement)}; evidence kept ${rate(g.evidenceKept)}; noise dropped ${rate(g.noiseDropped)} (kept ${g.keptWithEvidence}+${g.keptWithoutEvidence}, dropped ${g.droppedWithEvidence}+${g.droppedWithoutEvidence}: with+without evidence)`,
  ];
}

const f3 = (x: number | undefined) => (x === undefined ? '  -  ' : x.toFixed(3));

/** One line per sample and mode: recall at each k and budget; the funnel's refusals per sample. */
export function formatBySample(bySample: Record<string, SampleFigures>, ks: readonly number[], budgets: readonly number[]): string[] {
  const lines = ['By sample (answerable questions; category 5 held nothing / answerable refused by the funnel):'];
  for (const [id, f] of Object.entries(bySample)) {
    for (const [mode, m] of Object.entries(f.modes)) {
      if (!m) continue;
      const cells = [
        ...ks.map((k) => `@${k} ${f3(m.recallAtK[String(k)])}`),
        ...budgets.map((b) => `${b}tk ${f3(m.recallAtBudget[String(b)])}`),
      ];
      lines.push(`  ${id.padEnd(10)} ${mode.padEnd(7)} ${cells.join('  ')}  (${f.questions} q)`);
    }
    const u = f.unanswerable;
    lines.push(
      `  ${id.padEnd(10)} refusals category 5 ${(u.holdsNothingRate * 100).toFixed(1)} % of ${u.questions}, answerable ${(u.falseRefusalRate * 100).toFixed(1)} %`,
    );
  }
  return lines;
}

export function formatLocomoReport(r: LocomoReport, ks: readonly number[], budgets: readonly number[], notes: readonly string[]): string {
  const head = [
    'mode    ',
    ...ks.map((k) => `@${k}`.padStart(6)),
    ...budgets.map((b) => `${b}tk`.padStart(7)),
    '   p50 ms  p95 ms',
    ' precision  tokens',
  ];
  const lines = [`LoCoMo evidence recall, ${r.questions} answerable questions (at k items / at a token budget)`, head.join(' ')];
  for (const [mode, m] of Object.entries(r.modes)) {
    if (!m) continue;
    const cells = [
      ...ks.map((k) => f3(m.recallAtK[String(k)]).padStart(6)),
      ...budgets.map((b) => f3(m.recallAtBudget[String(b)]).padStart(7)),
    ];
    lines.push(
      [
        mode.padEnd(8),
        ...cells,
        m.latencyMs.p50.toFixed(1).padStart(9),
        m.latencyMs.p95.toFixed(1).padStart(7),
        f3(m.packagePrecision).padStart(10),
        Math.round(m.meanPackageTokens).toString().padStart(7),
      ].join(' '),
    );
    for (const [c, v] of Object.entries(m.byCategory)) {
      const cat = [
        ...ks.map((k) => f3(v.recallAtK[String(k)]).padStart(6)),
        ...budgets.map((b) => f3(v.recallAtBudget[String(b)]).padStart(7)),
      ];
      lines.push([`  cat ${c} `.padEnd(8), ...cat, `  (${v.questions} q)`].join(' '));
    }
  }
  lines.push(`Category 5 (unanswerable): the funnel says "holds nothing" for ${(r.unanswerable.holdsNothingRate * 100).toFixed(1)} %`);
  lines.push(`Categories 1-4 (answerable): the funnel refused ${(r.unanswerable.falseRefusalRate * 100).toFixed(1)} % (false refusals)`);
  return [...lines, ...notes].join('\n');
}
