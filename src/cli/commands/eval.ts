import { readFile } from 'node:fs/promises';
import { extractConversation } from '../../lib/core/extract/driver';
import { OpenAiCompatibleLlm } from '../../lib/models/openai-compatible-llm';
import { evalObservationCoverage, type ObservationEvalReport } from '../../lib/core/extract/eval-observation';
import { locomoSessions } from '../../lib/core/extract/locomo';
import { UsageError, type Command } from '../command';
import { EVAL_LOCOMO_USAGE, runEvalLocomo } from '../recall/eval-locomo-command';
import { EVAL_LABELLED_USAGE, runEvalLabelled } from './eval-labelled';
import { EVAL_GLOBAL_USAGE, runEvalGlobal } from '../recall/eval-global-command';
import { EVAL_QUESTIONS_USAGE, runEvalQuestions } from '../recall/eval-questions-command';
import { EVAL_OFFTOPIC_USAGE, runEvalOfftopic } from '../recall/eval-offtopic-command';
import { EVAL_SMALL_USAGE, runEvalSmall } from '../recall/eval-small-command';
import { EVAL_SAFETY_USAGE, runEvalInjection, runEvalSecrets } from './eval-safety';
import { optionValues } from './import';

/** Evaluations against LoCoMo (kept in ../shared/data; never bundled) and the labelled extraction corpus. */
export const evalCommand: Command = {
  name: 'eval',
  summary:
    'Evaluate extraction (LoCoMo coverage or the labelled corpus) or recall quality, off-topic refusal, big-picture prompts (the GLOBAL view), questions about one settled thing (hints), refusals in vaults of one or a few chats, or secret redaction and injection flags on their corpora.',
  usage: `eval extraction <locomo.json> [--json] | ${EVAL_LABELLED_USAGE} | ${EVAL_LOCOMO_USAGE} | ${EVAL_OFFTOPIC_USAGE} | ${EVAL_GLOBAL_USAGE} | ${EVAL_QUESTIONS_USAGE} | ${EVAL_SMALL_USAGE} | ${EVAL_SAFETY_USAGE}`,
  async run(argv) {
    const [what, corpus] = argv.filter((a) => !a.startsWith('--'));
    if (what === 'locomo') return runEvalLocomo(argv);
    if (what === 'offtopic') return runEvalOfftopic(argv);
    if (what === 'global') return runEvalGlobal(argv);
    if (what === 'questions') return runEvalQuestions(argv);
    if (what === 'small') return runEvalSmall(argv);
    if (what === 'secrets') return runEvalSecrets(corpus);
    if (what === 'injection') return runEvalInjection(corpus);
    if (what !== 'extraction') throw new UsageError(what ? `Unknown evaluation "${what}".` : 'Name what to evaluate.');
    const options = optionValues(argv, ['--labelled', '--llm-endpoint', '--model', '--llm-model']);
    if (options.missing) throw new UsageError(`${options.missing} needs a value.`);
    const labelled = options.values['--labelled'];
    const endpoint = options.values['--llm-endpoint'];
    const model = options.values['--model'] ?? options.values['--llm-model'];
    if (labelled !== undefined) {
      if (model !== undefined && endpoint === undefined) throw new UsageError('--model needs --llm-endpoint.');
      const llm = endpoint ? new OpenAiCompatibleLlm({ baseUrl: endpoint, model: model ?? 'default' }) : null;
      return runEvalLabelled(labelled, { errors: argv.includes('--errors'), heldoutErrors: argv.includes('--errors-heldout'), llm });
    }
    if (endpoint !== undefined) throw new UsageError('--llm-endpoint is measured on the labelled corpus: add --labelled DIR.');
    const [, file] = options.rest.filter((a) => !a.startsWith('--'));
    if (!file) throw new UsageError('Give the LoCoMo JSON file to evaluate on.');
    const data = JSON.parse(await readFile(file, 'utf8')) as unknown;
    const { sessions, skippedSamples } = locomoSessions(data);
    // The extractor available in Node is the rule-based one (no WebGPU for a local model here).
    const report = await evalObservationCoverage(sessions, (s) => extractConversation(s.messages), 'rule-based');
    return { json: report, text: formatExtractionReport(report, skippedSamples) };
  },
};

function pct(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}

function formatExtractionReport(r: ObservationEvalReport, skippedSamples: number): string {
  const lines = [
    `Extractor: ${r.extractor}; ${r.sessions} sessions, ${r.goldFacts} gold facts${skippedSamples ? ` (${skippedSamples} samples skipped)` : ''}`,
    `Coverage: ${pct(r.coverage)} (${r.coveredFacts} facts); strict: ${pct(r.strictCoverage)}; ceiling (whole turns): ${pct(r.turnCeiling)}`,
    `Units: ${r.units}; validator pass rate ${pct(r.validatorPassRate)}; mean ${r.meanWordsPerUnit} words per unit`,
    'By category (units / units covering a fact):',
    ...Object.entries(r.byCategory).map(([c, v]) => `  ${c.padEnd(26)} ${String(v.units).padStart(6)} / ${v.coveringUnits}`),
    `Rule: ${r.rule}`,
  ];
  return lines.join('\n');
}
