import { isVerbless } from './classify';
import { ACTION, CONSTRAINT, DECISION, FUTURE_VERB, HEDGE, REPORTED, SUGGESTION, TASK_TIME, USER_CONSTRAINT } from './cues';
import type { Segment } from './segments';
import { CATEGORIES, type Category } from './units';
import { NEGATORS, stem, tokens } from './words';

/**
 * A category classifier over the TEXT of a rule-based segment (issue 13, step 2): lowercased words
 * and word bigrams, the first word and first two words, the speaker, where the segment sits (first
 * user message, under "Decided:", in an option list, a piece of a longer sentence) and the cue
 * phrases of `cues.ts` as yes/no features. Unlike the earlier experiment it does not read the
 * rules' category or cue, so it can disagree with them. A ninth class, `none`, stands for a
 * segment that matches no labelled unit.
 *
 * Multinomial logistic regression, trained by `scripts/train-text-classifier.ts` on the train split
 * only: deterministic full-batch gradient descent from zero weights, features in sorted order,
 * weights rounded to 3 decimals.
 */
export const NONE = 'none';
export type Label = Category | typeof NONE;
export const LABELS: readonly Label[] = [...CATEGORIES, NONE];

export interface TextClassifierWeights {
  featureVersion: number;
  labels: Label[];
  bias: number[];
  weights: Record<string, number[]>;
  training: TrainingOptions & { examples: number; conversations: number; split: string };
}

export const TEXT_FEATURE_VERSION = 1;

export interface TrainingOptions {
  iterations: number;
  learningRate: number;
  l2: number;
  minCount: number;
}

export const DEFAULT_TEXT_TRAINING: TrainingOptions = { iterations: 300, learningRate: 0.5, l2: 0.002, minCount: 2 };

export interface TextExample {
  features: readonly string[];
  label: Label;
}

const CUES: readonly [string, RegExp][] = [
  ['decision', DECISION],
  ['future', FUTURE_VERB],
  ['hedge', HEDGE],
  ['action', ACTION],
  ['time', TASK_TIME],
  ['constraint', CONSTRAINT],
  ['user-constraint', USER_CONSTRAINT],
  ['suggestion', SUGGESTION],
  ['reported', REPORTED],
];

/** What the classifier reads of a segment (never the rules' category or cue). */
export function textFeatures(
  segment: Pick<Segment, 'text' | 'role' | 'firstUserTurn' | 'decidedSentence' | 'optionList' | 'piece'>,
): string[] {
  const { role, text } = segment;
  const words = tokens(text);
  const features = new Set<string>([`role=${role}`]);
  const flag = (name: string, on: boolean): void => {
    if (on) features.add(`${role}:${name}`);
  };
  flag('first-user-turn', segment.firstUserTurn);
  flag('decided', segment.decidedSentence);
  flag('option-list', segment.optionList);
  flag('piece', segment.piece);
  flag('verbless', isVerbless(text));
  flag('question', /\?\s*$/u.test(text));
  flag(
    'negated',
    words.some((w) => NEGATORS.has(w)),
  );
  flag('number', /\d/u.test(text));
  flag('money', /[€$£¥]\s?\d|\d\s?(?:euros?|dollars?|pounds?)\b/iu.test(text));
  for (const [name, cue] of CUES) flag(`cue=${name}`, cue.test(text));
  const first = words[0] ?? '';
  features.add(`${role}:w0=${first}`);
  if (words[1]) features.add(`${role}:w01=${first} ${words[1]}`);
  const stems = words.map((w) => stem(w));
  stems.forEach((w, i) => {
    features.add(`${role}:u=${w}`);
    if (i > 0) features.add(`${role}:b=${stems[i - 1]} ${w}`);
  });
  return [...features].sort();
}

function softmax(scores: readonly number[]): number[] {
  const max = Math.max(...scores);
  const exp = scores.map((s) => Math.exp(s - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / sum);
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

export function trainTextClassifier(
  examples: readonly TextExample[],
  options: TrainingOptions = DEFAULT_TEXT_TRAINING,
  about: { conversations: number; split: string } = { conversations: 0, split: 'train' },
): TextClassifierWeights {
  const counts = new Map<string, number>();
  for (const e of examples) for (const f of e.features) counts.set(f, (counts.get(f) ?? 0) + 1);
  const vocabulary = [...counts.entries()]
    .filter(([, n]) => n >= options.minCount)
    .map(([f]) => f)
    .sort();
  const index = new Map(vocabulary.map((f, i) => [f, i]));
  const labels = [...LABELS];
  const k = labels.length;
  const rows = examples.map((e) => ({
    x: [...new Set(e.features.map((f) => index.get(f)).filter((i): i is number => i !== undefined))].sort((a, b) => a - b),
    y: labels.indexOf(e.label),
  }));
  const w = vocabulary.map(() => new Array<number>(k).fill(0));
  const b = new Array<number>(k).fill(0);
  const n = Math.max(1, rows.length);
  for (let step = 0; step < options.iterations; step += 1) {
    const gw = vocabulary.map(() => new Array<number>(k).fill(0));
    const gb = new Array<number>(k).fill(0);
    for (const { x, y } of rows) {
      const p = softmax(b.map((bias, c) => x.reduce((sum, f) => sum + w[f]![c]!, bias)));
      for (let c = 0; c < k; c += 1) {
        const d = p[c]! - (c === y ? 1 : 0);
        gb[c]! += d;
        for (const f of x) gw[f]![c]! += d;
      }
    }
    for (let c = 0; c < k; c += 1) b[c]! -= (options.learningRate * gb[c]!) / n;
    for (let f = 0; f < vocabulary.length; f += 1) {
      for (let c = 0; c < k; c += 1) w[f]![c]! -= options.learningRate * (gw[f]![c]! / n + options.l2 * w[f]![c]!);
    }
  }
  const weights: Record<string, number[]> = {};
  vocabulary.forEach((f, i) => {
    const row = w[i]!.map(round);
    if (row.some((v) => v !== 0)) weights[f] = row;
  });
  return {
    featureVersion: TEXT_FEATURE_VERSION,
    labels,
    bias: b.map(round),
    weights,
    training: { ...options, examples: rows.length, conversations: about.conversations, split: about.split },
  };
}

/** Probabilities per label for one segment's features. */
export function labelProbabilities(weights: TextClassifierWeights, features: readonly string[]): number[] {
  const scores = [...weights.bias];
  for (const f of features) weights.weights[f]?.forEach((v, c) => (scores[c]! += v));
  return softmax(scores);
}

/** Categories a speaker may take: the assistant neither decides nor takes on tasks nor asks the person's questions. */
const ASSISTANT_ALLOWED: ReadonlySet<Label> = new Set<Label>(['Facts', 'Ideas', 'Constraints', 'Provisional/Exploratory', NONE]);

/**
 * The classifier's label for a segment, or the rules' category where the classifier is less sure
 * than `minConfidence` (0: always the classifier). A segment the rules made by adopting the
 * assistant's suggestion stays a Decision (its text is the adopted one, not the user's words).
 * `none` drops the segment only when `drop` is set.
 */
export function classifySegment(
  weights: TextClassifierWeights,
  segment: Segment,
  options: { minConfidence: number; drop: boolean },
): Label {
  if (segment.cue === 'adoption') return segment.category;
  const p = labelProbabilities(weights, textFeatures(segment));
  let best: Label = segment.category;
  let bestP = -1;
  weights.labels.forEach((label, i) => {
    if (segment.role !== 'user' && !ASSISTANT_ALLOWED.has(label)) return;
    if (label === NONE && !options.drop) return;
    if (p[i]! > bestP) {
      best = label;
      bestP = p[i]!;
    }
  });
  return bestP >= options.minConfidence ? best : segment.category;
}
