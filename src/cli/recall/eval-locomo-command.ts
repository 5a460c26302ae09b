/**
 * `eval locomo <file> [--k 5,10] [--budget 500,1000] [--json] [--modes ...] [--vectors ...]
 * [--recency on|off] [--samples id,id]`: evidence recall of the app's read path on LoCoMo (the
 * index service and the recall service, services/eval/locomo.ts), per mode and category, with
 * latency. JSON is the report shape of the issue, exactly.
 */
import { readFile } from 'node:fs/promises';
import { vaultError, VaultFailure } from '../../lib/core/errors';
import { EVAL_MODES, type EvalMode, type LocomoReport } from '../../lib/core/recall/eval-locomo';
import { parseLocomo } from '../../lib/core/recall/locomo-data';
import type { CommandResult } from '../command';
import { UsageError } from '../command';
import { intList, oneOf, parseCommandArgs } from './args';
import { RECENCY_FOR_ARCHIVES, runLocomo } from '../../lib/services/eval/locomo';
import { loadHnswlibQuietly } from './hnswlib-node';

export const EVAL_LOCOMO_USAGE =
  'eval locomo <locomo.json> [--k 5,10] [--budget 500,1000] [--modes bm25,vector,hybrid,funnel] [--vectors exact|hnsw|auto] [--recency on|off] [--samples id,...] [--json]';

function modesOf(value: string | undefined): EvalMode[] {
  if (value === undefined) return [...EVAL_MODES];
  const modes = value.split(',').map((m) => m.trim());
  const bad = modes.filter((m) => !(EVAL_MODES as readonly string[]).includes(m));
  if (bad.length > 0 || modes.length === 0) throw new UsageError(`--modes takes ${EVAL_MODES.join(', ')} (got ${bad.join(', ')}).`);
  return [...new Set(modes)] as EvalMode[];
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
    samples: { type: 'string' },
  });
  const file = positionals[1];
  if (!file) throw new UsageError('Give the LoCoMo JSON file to evaluate on.');
  const ks = intList(values.k, [5, 10], 'k');
  const budgets = intList(values.budget, [500, 1000], 'budget');
  const vectors = oneOf(values.vectors, ['exact', 'hnsw', 'auto'] as const, 'hnsw', 'vectors');
  const recency = oneOf(values.recency, ['on', 'off'] as const, RECENCY_FOR_ARCHIVES ? 'on' : 'off', 'recency') === 'on';
  const modes = modesOf(values.modes);
  const samples = await readSamples(file, values.samples);
  await loadHnswlibQuietly();
  const started = performance.now();
  const { report, diagnostics, vectors: used } = await runLocomo(samples, { ks, budgets, modes, vectors, recency });
  const seconds = (performance.now() - started) / 1000;
  const settings = `${samples.length} samples; embedder ${report.embedder}; vectors ${used}; recency ${recency ? 'on' : 'off'}; ${seconds.toFixed(1)} s`;
  const notes = [
    `${diagnostics.skippedQuestions} answerable questions skipped (no resolvable evidence); unreadable evidence ids: ${diagnostics.malformedEvidence.map((m) => JSON.stringify(m)).join(', ') || 'none'}`,
  ];
  return { json: report, text: formatLocomoReport(report, ks, budgets, [settings, ...notes]) };
}

const f3 = (x: number | undefined) => (x === undefined ? '  -  ' : x.toFixed(3));

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
