/**
 * Trains the extraction category classifier on the TRAIN split of the labelled corpus and writes
 * src/lib/core/extract/classifier-weights.json. The held-out split is never read here.
 *
 *   npm run train:extraction            # train on all of train/, write the weights (deterministic)
 *   npm run train:extraction -- --cv    # 5-fold cross-validation on train/ by conversation:
 *                                       # rules alone vs rules + classifier, for each L2 setting
 */
import { writeFile } from 'node:fs/promises';
import { format } from 'prettier';
import { readLabelledCorpus } from '../src/cli/commands/eval-labelled';
import {
  classifierCategorizer,
  DEFAULT_TRAINING,
  trainCategoryClassifier,
  type TrainingOptions,
} from '../src/lib/core/extract/category-classifier';
import { trainingExamples } from '../src/lib/core/extract/classifier-training';
import { extractConversation } from '../src/lib/core/extract/driver';
import { extractLabelled, scoreLabelled, type ScoredConversation } from '../src/lib/core/extract/eval-labelled';
import type { LabelledConversation } from '../src/lib/core/extract/labelled-corpus';
import { byRules, type Categorizer } from '../src/lib/core/extract/rule-based';

const TRAIN_DIR = 'tests/fixtures/extraction/train';
const OUT = 'src/lib/core/extract/classifier-weights.json';
const FOLDS = 5;
const L2_CURVE = [0, 0.0005, 0.002, 0.01, 0.05];

async function scoredWith(corpus: readonly LabelledConversation[], categorize: Categorizer): Promise<ScoredConversation[]> {
  return extractLabelled(
    corpus.map((conversation) => ({ split: 'cv', conversation })),
    async (messages) => (await extractConversation(messages, { categorize })).units,
  );
}

async function crossValidate(conversations: readonly LabelledConversation[], options: TrainingOptions) {
  const rules: ScoredConversation[] = [];
  const learned: ScoredConversation[] = [];
  for (let fold = 0; fold < FOLDS; fold += 1) {
    const test = conversations.filter((_, i) => i % FOLDS === fold);
    const train = conversations.filter((_, i) => i % FOLDS !== fold);
    const weights = trainCategoryClassifier(trainingExamples(train), options, { conversations: train.length, split: 'cv' });
    rules.push(...(await scoredWith(test, byRules)));
    learned.push(...(await scoredWith(test, classifierCategorizer(weights))));
  }
  return { rules: scoreLabelled(rules, 'rules'), learned: scoreLabelled(learned, 'classifier') };
}

const line = (name: string, r: ReturnType<typeof scoreLabelled>): string =>
  `${name.padEnd(28)} macro-F1 ${r.macroF1.toFixed(3)}  Decisions P ${r.byCategory.Decisions.precision.toFixed(3)} R ${r.byCategory.Decisions.recall.toFixed(3)}  Ideas F1 ${r.byCategory.Ideas.f1.toFixed(3)}  Facts F1 ${r.byCategory.Facts.f1.toFixed(3)}`;

async function main(): Promise<void> {
  const corpus = await readLabelledCorpus(TRAIN_DIR);
  if (corpus.some((c) => c.split !== '.')) throw new Error(`${TRAIN_DIR} must hold conversation files only.`);
  const conversations = corpus.map((c) => c.conversation).sort((a, b) => a.id.localeCompare(b.id));
  if (process.argv.includes('--cv')) {
    console.log(`${FOLDS}-fold cross-validation by conversation on ${TRAIN_DIR} (${conversations.length} conversations)`);
    for (const l2 of L2_CURVE) {
      const { rules, learned } = await crossValidate(conversations, { ...DEFAULT_TRAINING, l2 });
      if (l2 === L2_CURVE[0]) console.log(line('rules alone', rules));
      console.log(line(`rules + classifier, l2 ${l2}`, learned));
    }
    return;
  }
  const examples = trainingExamples(conversations);
  const weights = trainCategoryClassifier(examples, DEFAULT_TRAINING, { conversations: conversations.length, split: TRAIN_DIR });
  const text = await format(JSON.stringify(weights), { parser: 'json', printWidth: 140 });
  await writeFile(OUT, text);
  console.log(
    `${examples.length} examples from ${conversations.length} conversations; ${Object.keys(weights.weights).length} features -> ${OUT}`,
  );
}

await main();
