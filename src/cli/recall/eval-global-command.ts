/**
 * `eval global [--prompts FILE] [--corpus DIR] [--global N] [--hybrid N] [--of-best X] [--focus X|off]
 * [--llm-endpoint URL [--model NAME]] [--json]`: what the GLOBAL view's stages (structural items,
 * session focus) do for big-picture prompts about the chats of the labelled extraction corpus, each
 * asked with them off and on (services/eval/global-view.ts). With a local OpenAI-compatible server,
 * the model writes what it writes in the app (units, session and community summaries) and recall's
 * model stages ask it; the report says what it wrote.
 */
import { fileURLToPath } from 'node:url';
import { vaultError, VaultFailure } from '../../lib/core/errors';
import { OpenAiCompatibleLlm } from '../../lib/models/openai-compatible-llm';
import { parseGlobalPrompts, runGlobalEval, type GlobalMetrics, type GlobalReport } from '../../lib/services/eval/global-view';
import type { CommandResult } from '../command';
import { UsageError } from '../command';
import { readLabelledCorpus } from '../commands/eval-labelled';
import { parseCommandArgs } from './args';
import { readJson } from './eval-offtopic-command';
import { loadHnswlibQuietly } from './hnswlib-node';

export const DEFAULT_GLOBAL_PROMPTS = fileURLToPath(new URL('../../../tests/fixtures/recall/global-prompts.json', import.meta.url));
export const DEFAULT_GLOBAL_CORPUS = fileURLToPath(new URL('../../../tests/fixtures/extraction', import.meta.url));

export const EVAL_GLOBAL_USAGE =
  'eval global [--prompts FILE] [--corpus DIR] [--global N] [--hybrid N] [--of-best X] [--focus X|off] [--llm-endpoint URL [--model NAME]] [--json]';

function count(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/u.test(value.trim())) throw new UsageError(`--${name} takes a whole number (structural items at most).`);
  return Number(value);
}

export async function runEvalGlobal(argv: readonly string[]): Promise<CommandResult> {
  const { values, positionals } = parseCommandArgs(argv, {
    prompts: { type: 'string' },
    corpus: { type: 'string' },
    global: { type: 'string' },
    hybrid: { type: 'string' },
    'of-best': { type: 'string' },
    focus: { type: 'string' },
    'llm-endpoint': { type: 'string' },
    model: { type: 'string' },
  });
  if (positionals.length > 1)
    throw new UsageError(`eval global takes no file argument (got ${positionals.slice(1).join(', ')}); use --prompts and --corpus.`);
  const file = values.prompts ?? DEFAULT_GLOBAL_PROMPTS;
  const prompts = parseGlobalPrompts(await readJson(file, 'prompt file'));
  if (!prompts.ok) throw new VaultFailure(vaultError('input/invalid', `${file}: ${prompts.error.message}`));
  const corpus = (await readLabelledCorpus(values.corpus ?? DEFAULT_GLOBAL_CORPUS)).map((c) => c.conversation);
  const global = count(values.global, 'global');
  const hybrid = count(values.hybrid, 'hybrid');
  const ofBest = values['of-best'] === undefined ? undefined : Number(values['of-best']);
  if (ofBest !== undefined && !(ofBest >= 0 && ofBest <= 1)) throw new UsageError('--of-best takes a share between 0 and 1.');
  const focus = values.focus === undefined ? undefined : values.focus === 'off' ? false : Number(values.focus);
  if (typeof focus === 'number' && !(focus > 0 && focus <= 1)) throw new UsageError('--focus takes a share above 0 and at most 1, or off.');
  if (values.model !== undefined && values['llm-endpoint'] === undefined) throw new UsageError('--model needs --llm-endpoint.');
  const llm = values['llm-endpoint']
    ? new OpenAiCompatibleLlm({ baseUrl: values['llm-endpoint'], model: values.model ?? 'default' })
    : null;
  await loadHnswlibQuietly();
  const started = performance.now();
  const report = await runGlobalEval(corpus, prompts.value, {
    structure: {
      ...(global !== undefined ? { global } : {}),
      ...(hybrid !== undefined ? { hybrid } : {}),
      ...(ofBest !== undefined ? { ofBest } : {}),
    },
    ...(focus !== undefined ? { focus } : {}),
    llm,
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    json: report,
    text: formatGlobalReport(
      report,
      llm
        ? `recall defaults (lexical embedder, HNSW), model ${llm.id} for extraction, summaries and recall's model stages; ${seconds.toFixed(1)} s`
        : `recall defaults (lexical embedder, HNSW, rule-based extraction, no model); ${seconds.toFixed(1)} s`,
    ),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function row(name: string, m: GlobalMetrics): string {
  return `${name.padEnd(16)} ${pct(m.targetInPackage).padStart(8)} ${pct(m.conversationPrecision).padStart(10)} ${pct(m.refusedRate).padStart(8)} ${m.meanPackageTokens.toFixed(0).padStart(7)} ${m.structuralPerAsk.toFixed(2).padStart(11)} ${pct(m.structuralOnTarget).padStart(10)}`;
}

export function formatGlobalReport(r: GlobalReport, settings: string): string {
  return [
    `Big-picture prompts: ${r.prompts} about ${r.conversations} conversations; routed ${Object.entries(r.modes)
      .map(([m, n]) => `${m} ${n}`)
      .join(', ')}; structural units ${Object.entries(r.units)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
    `${'pass'.padEnd(16)} ${'target'.padStart(8)} ${'precision'.padStart(10)} ${'refused'.padStart(8)} ${'tokens'.padStart(7)} ${'structural'.padStart(11)} ${'on target'.padStart(10)}`,
    row('off', r.off),
    row('on', r.on),
    ...Object.entries(r.byKind).flatMap(([k, v]) => [row(`${k} off`, v.off), row(`${k} on`, v.on)]),
    `Ask by ask, the share of package items from the prompt's chat with the GLOBAL view's stages on: ${r.perAsk.better} higher, ${r.perAsk.worse} lower, ${r.perAsk.same} the same.`,
    "target: asks whose package holds an item of the prompt's chat; precision: the share of package items from it; structural: structural items per ask; on target: the share of those drawn from the prompt's chat.",
    ...(r.model ? [modelLine(r.model)] : []),
    settings,
  ].join('\n');
}

function modelLine(m: NonNullable<GlobalReport['model']>): string {
  const c = m.communitySummaries;
  const communities = c
    ? `community summaries: ${c.written} written, ${c.failed} failed${
        c.failed
          ? ` (${Object.entries(c.failures)
              .map(([code, n]) => `${code} ${n}`)
              .join(', ')})`
          : ''
      }, of ${c.communities}${c.stopped ? ` (stopped: ${c.stopped})` : ''}`
    : 'community summaries: the job did not run';
  return `Model ${m.id}: session summaries ${m.sessionSummaries.llm} by the model, ${m.sessionSummaries.extractive} extractive; ${communities}.`;
}
