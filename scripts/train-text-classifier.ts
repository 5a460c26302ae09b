/**
 * Trains the text classifier of the rule-based extractor's segments (core/extract/text-classifier.ts)
 * on the TRAIN split of the labelled corpus. Measured, not shipped: docs/EXTRACT.md has the figures.
 *
 *   npm run train:extraction -- --cv    # 5-fold cross-validation on train/ by conversation: the
 *                                       # rules alone against the classifier at each setting
 *   npm run train:extraction -- --write FILE  # train on all of train/, write the weights (deterministic)
 *   npm run train:extraction -- --heldout  # once, after the setting is chosen: train on train/,
 *                                       # report the held-out split (never used to choose anything)
 */
import { writeFile } from 'node:fs/promises';
import { format } from 'prettier';
import { readLabelledCorpus } from '../src/cli/commands/eval-labelled';
import { extractConversation } from '../src/lib/core/extract/driver';
import { extractLabelled, scoreLabelled, type LabelledReport, type ScoredConversation } from '../src/lib/core/extract/eval-labelled';
import type { LabelledConversation } from '../src/lib/core/extract/labelled-corpus';
import { byRules, type Categorizer } from '../src/lib/core/extract/rule-based';
import {
  classifySegment,
  DEFAULT_TEXT_TRAINING,
  NONE,
  trainTextClassifier,
  type TextClassifierWeights,
  type TrainingOptions,
} from '../src/lib/core/extract/text-classifier';
import { textExamples } from '../src/lib/core/extract/text-classifier-training';

const TRAIN_DIR = 'tests/fixtures/extraction/train';
const HELDOUT_DIR = 'tests/fixtures/extraction/heldout';
const FOLDS = 5;
/** The text classifier alone, and the setting cross-validation chose. */
const HELDOUT_SETTINGS: Setting[] = [
  { l2: DEFAULT_TEXT_TRAINING.l2, minConfidence: 0, drop: false },
  { l2: DEFAULT_TEXT_TRAINING.l2, minConfidence: 0.9, drop: false },
];

interface Setting {
  l2: number;
  minConfidence: number;
  drop: boolean;
}

const SETTINGS: Setting[] = [0.0005, 0.002, 0.01].flatMap((l2) =>
  [0, 0.5, 0.7, 0.9].flatMap((minConfidence) => [false, true].map((drop) => ({ l2, minConfidence, drop }))),
);

function categorizer(weights: TextClassifierWeights, setting: Setting): Categorizer {
  return (segment) => {
    const label = classifySegment(weights, segment, setting);
    return label === NONE ? null : label;
  };
}

async function scoredWith(corpus: readonly LabelledConversation[], categorize: Categorizer): Promise<ScoredConversation[]> {
  return extractLabelled(
    corpus.map((conversation) => ({ split: 'cv', conversation })),
    async (messages) => (await extractConversation(messages, { categorize })).units,
  );
}

const line = (name: string, r: LabelledReport): string =>
  `${name.padEnd(40)} macro-F1 ${r.macroF1.toFixed(3)}  Decisions P ${r.byCategory.Decisions.precision.toFixed(3)} R ${r.byCategory.Decisions.recall.toFixed(3)} F1 ${r.byCategory.Decisions.f1.toFixed(3)}  Ideas F1 ${r.byCategory.Ideas.f1.toFixed(3)}  Facts F1 ${r.byCategory.Facts.f1.toFixed(3)}`;

async function crossValidate(conversations: readonly LabelledConversation[]): Promise<void> {
  const folds = Array.from({ length: FOLDS }, (_, fold) => ({
    test: conversations.filter((_, i) => i % FOLDS === fold),
    train: conversations.filter((_, i) => i % FOLDS !== fold),
  }));
  const rules: ScoredConversation[] = [];
  for (const { test } of folds) rules.push(...(await scoredWith(test, byRules)));
  console.log(line('rules alone', scoreLabelled(rules, 'rules')));
  const byL2 = new Map<number, TextClassifierWeights[]>();
  for (const l2 of new Set(SETTINGS.map((s) => s.l2))) {
    const options: TrainingOptions = { ...DEFAULT_TEXT_TRAINING, l2 };
    byL2.set(
      l2,
      folds.map(({ train }) => trainTextClassifier(textExamples(train), options, { conversations: train.length, split: 'cv' })),
    );
  }
  for (const setting of SETTINGS) {
    const scored: ScoredConversation[] = [];
    for (const [i, { test }] of folds.entries()) scored.push(...(await scoredWith(test, categorizer(byL2.get(setting.l2)![i]!, setting))));
    console.log(line(`l2 ${setting.l2}, min p ${setting.minConfidence}${setting.drop ? ', drop' : ''}`, scoreLabelled(scored, 'cv')));
  }
}

async function main(): Promise<void> {
  const corpus = await readLabelledCorpus(TRAIN_DIR);
  if (corpus.some((c) => c.split !== '.')) throw new Error(`${TRAIN_DIR} must hold conversation files only.`);
  const conversations = corpus.map((c) => c.conversation).sort((a, b) => a.id.localeCompare(b.id));
  if (process.argv.includes('--cv')) {
    console.log(`${FOLDS}-fold cross-validation by conversation on ${TRAIN_DIR} (${conversations.length} conversations)`);
    await crossValidate(conversations);
    return;
  }
  if (process.argv.includes('--heldout')) {
    const heldout = (await readLabelledCorpus(HELDOUT_DIR)).map((c) => c.conversation);
    const weights = trainTextClassifier(textExamples(conversations), DEFAULT_TEXT_TRAINING, {
      conversations: conversations.length,
      split: TRAIN_DIR,
    });
    console.log(line('held-out: rules alone', scoreLabelled(await scoredWith(heldout, byRules), 'rules')));
    for (const setting of HELDOUT_SETTINGS) {
      const name = `held-out: min p ${setting.minConfidence}`;
      console.log(line(name, scoreLabelled(await scoredWith(heldout, categorizer(weights, setting)), name)));
    }
    return;
  }
  const at = process.argv.indexOf('--write');
  const out = at === -1 ? undefined : process.argv[at + 1];
  if (!out) throw new Error('Say --cv, --heldout or --write FILE.');
  const examples = textExamples(conversations);
  const weights = trainTextClassifier(examples, DEFAULT_TEXT_TRAINING, { conversations: conversations.length, split: TRAIN_DIR });
  await writeFile(out, await format(JSON.stringify(weights), { parser: 'json', printWidth: 140 }));
  console.log(
    `${examples.length} examples from ${conversations.length} conversations; ${Object.keys(weights.weights).length} features -> ${out}`,
  );
}

await main();
