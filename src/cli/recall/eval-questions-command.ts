/**
 * `eval questions [--prompts FILE] [--corpus DIR] [--hints W] [--json]`: what the hints do for questions
 * about one thing a person settled in a chat of the labelled extraction corpus, each asked with the
 * hints off and on (services/eval/question-eval.ts).
 */
import { fileURLToPath } from 'node:url';
import { vaultError, VaultFailure } from '../../lib/core/errors';
import { parseQuestionPrompts, runQuestionEval, type QuestionMetrics, type QuestionReport } from '../../lib/services/eval/question-eval';
import type { CommandResult } from '../command';
import { UsageError } from '../command';
import { readLabelledCorpus } from '../commands/eval-labelled';
import { parseCommandArgs } from './args';
import { DEFAULT_GLOBAL_CORPUS } from './eval-global-command';
import { readJson } from './eval-offtopic-command';
import { loadHnswlibQuietly } from './hnswlib-node';

export const DEFAULT_QUESTION_PROMPTS = fileURLToPath(new URL('../../../tests/fixtures/recall/question-prompts.json', import.meta.url));

export const EVAL_QUESTIONS_USAGE = 'eval questions [--prompts FILE] [--corpus DIR] [--hints W] [--json]';

export async function runEvalQuestions(argv: readonly string[]): Promise<CommandResult> {
  const { values, positionals } = parseCommandArgs(argv, {
    prompts: { type: 'string' },
    corpus: { type: 'string' },
    hints: { type: 'string' },
  });
  if (positionals.length > 1)
    throw new UsageError(`eval questions takes no file argument (got ${positionals.slice(1).join(', ')}); use --prompts and --corpus.`);
  const file = values.prompts ?? DEFAULT_QUESTION_PROMPTS;
  const prompts = parseQuestionPrompts(await readJson(file, 'prompt file'));
  if (!prompts.ok) throw new VaultFailure(vaultError('input/invalid', `${file}: ${prompts.error.message}`));
  const hints = values.hints === undefined ? undefined : Number(values.hints);
  if (hints !== undefined && !(Number.isFinite(hints) && hints > 0)) throw new UsageError('--hints takes a weight above 0.');
  const corpus = (await readLabelledCorpus(values.corpus ?? DEFAULT_GLOBAL_CORPUS)).map((c) => c.conversation);
  await loadHnswlibQuietly();
  const started = performance.now();
  const report = await runQuestionEval(corpus, prompts.value, hints !== undefined ? { hints } : {});
  const seconds = (performance.now() - started) / 1000;
  return {
    json: report,
    text: formatQuestionReport(
      report,
      `recall defaults${hints !== undefined ? ` with hint weight ${hints}` : ''} (lexical embedder, HNSW, rule-based extraction); ${seconds.toFixed(1)} s`,
    ),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function row(name: string, m: QuestionMetrics): string {
  return `${name.padEnd(18)} ${pct(m.inPackage).padStart(8)} ${pct(m.atFive).padStart(8)} ${m.mrr.toFixed(3).padStart(6)} ${pct(m.refusedRate).padStart(8)} ${m.meanPackageTokens.toFixed(0).padStart(7)}`;
}

export function formatQuestionReport(r: QuestionReport, settings: string): string {
  return [
    `Questions: ${r.prompts} about ${r.conversations} conversations`,
    `${'pass'.padEnd(18)} ${'package'.padStart(8)} ${'top 5'.padStart(8)} ${'MRR'.padStart(6)} ${'refused'.padStart(8)} ${'tokens'.padStart(7)}`,
    row('hints off', r.off),
    row('hints on', r.on),
    ...Object.entries(r.byKind).flatMap(([k, v]) => [row(`${k} off`, v.off), row(`${k} on`, v.on)]),
    `Ask by ask, the rank of the answer's turn with the hints on: ${r.perAsk.better} higher, ${r.perAsk.worse} lower, ${r.perAsk.same} the same.`,
    "package: asks whose package holds an item drawn from the answer's turn; top 5: within the first five items; MRR: mean reciprocal rank of the first such item.",
    settings,
  ].join('\n');
}
