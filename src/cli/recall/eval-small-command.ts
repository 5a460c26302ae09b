/**
 * `eval small [--sizes 1,3,10] [--corpus DIR] [--offtopic-every N] [--json]`: refusals in a person's
 * first vaults (one chat, a handful): the `eval questions` and `eval global` prompts asked of vaults of
 * their chat and a few others, and the off-topic prompts asked of some of them
 * (services/eval/small-vaults.ts).
 */
import { readLabelledCorpus } from '../commands/eval-labelled';
import { vaultError, VaultFailure } from '../../lib/core/errors';
import { parseGlobalPrompts } from '../../lib/services/eval/global-view';
import { parseQuestionPrompts } from '../../lib/services/eval/question-eval';
import { runSmallVaults, type SmallVaultsReport } from '../../lib/services/eval/small-vaults';
import type { CommandResult } from '../command';
import { UsageError } from '../command';
import { parseCommandArgs } from './args';
import { DEFAULT_GLOBAL_CORPUS, DEFAULT_GLOBAL_PROMPTS } from './eval-global-command';
import { DEFAULT_OFFTOPIC_PROMPTS, readJson, readOfftopicPrompts } from './eval-offtopic-command';
import { DEFAULT_QUESTION_PROMPTS } from './eval-questions-command';
import { loadHnswlibQuietly } from './hnswlib-node';

export const EVAL_SMALL_USAGE = 'eval small [--sizes 1,3,10] [--corpus DIR] [--offtopic-every N] [--json]';

function sizesOf(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const parts = value.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^\d+$/u.test(p) || Number(p) < 1)) throw new UsageError('--sizes takes chats per vault, e.g. 1,3,10.');
  return parts.map(Number);
}

export async function runEvalSmall(argv: readonly string[]): Promise<CommandResult> {
  const { values, positionals } = parseCommandArgs(argv, {
    sizes: { type: 'string' },
    corpus: { type: 'string' },
    'offtopic-every': { type: 'string' },
  });
  if (positionals.length > 1) throw new UsageError(`eval small takes no file argument (got ${positionals.slice(1).join(', ')}).`);
  const sizes = sizesOf(values.sizes);
  const every = values['offtopic-every'];
  if (every !== undefined && !(/^\d+$/u.test(every) && Number(every) >= 1))
    throw new UsageError('--offtopic-every takes a whole number from 1.');
  const questions = parseQuestionPrompts(await readJson(DEFAULT_QUESTION_PROMPTS, 'prompt file'));
  if (!questions.ok) throw new VaultFailure(vaultError('input/invalid', `${DEFAULT_QUESTION_PROMPTS}: ${questions.error.message}`));
  const global = parseGlobalPrompts(await readJson(DEFAULT_GLOBAL_PROMPTS, 'prompt file'));
  if (!global.ok) throw new VaultFailure(vaultError('input/invalid', `${DEFAULT_GLOBAL_PROMPTS}: ${global.error.message}`));
  const offtopic = await readOfftopicPrompts(DEFAULT_OFFTOPIC_PROMPTS);
  const corpus = (await readLabelledCorpus(values.corpus ?? DEFAULT_GLOBAL_CORPUS)).map((c) => c.conversation);
  const prompts = [
    ...questions.value.map((q) => ({ conversation: q.conversation, prompt: q.prompt, set: 'question' })),
    ...global.value.map((g) => ({ conversation: g.conversation, prompt: g.prompt, set: 'global' })),
  ];
  await loadHnswlibQuietly();
  const started = performance.now();
  const report = await runSmallVaults(corpus, prompts, offtopic, {
    ...(sizes ? { sizes } : {}),
    ...(every !== undefined ? { offtopicEvery: Number(every) } : {}),
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    json: report,
    text: formatSmallReport(report, `recall defaults (lexical embedder, HNSW, rule-based extraction); ${seconds.toFixed(1)} s`),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export function formatSmallReport(r: SmallVaultsReport, settings: string): string {
  const rows = Object.entries(r.bySize).map(([size, s]) => {
    const sets = Object.entries(s.onTopic.bySet)
      .map(([set, c]) => `${set} ${pct(c.refusedRate)}`)
      .join(', ');
    return `${size.padStart(5)} ${String(s.vaults).padStart(7)} ${pct(s.onTopic.refusedRate).padStart(16)} ${pct(s.offTopic.refusedRate).padStart(16)}   ${sets}`;
  });
  return [
    `Small vaults: one per chat the ${r.prompts} prompts name, drawn from ${r.corpus} chats; ${r.offtopicPrompts} off-topic prompts asked of every ${r.offtopicEvery}th vault`,
    `${'chats'.padStart(5)} ${'vaults'.padStart(7)} ${'on topic refused'.padStart(16)} ${'off-topic refused'.padStart(16)}   on topic by prompt set`,
    ...rows,
    'On topic, a refusal is a false one ("the vault holds nothing on this" about the vault\'s own chat); off topic, a refusal is right.',
    settings,
  ].join('\n');
}
