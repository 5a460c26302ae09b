import type { Categorizer } from './rule-based';
import { segmentFeatures } from './segment-features';
import type { Segment } from './segments';
import { CATEGORIES, type Category } from './units';

/**
 * A multinomial logistic-regression classifier over `segmentFeatures`: it files each rule-based
 * segment under one of the eight categories. Trained by `scripts/train-extraction-classifier.ts`
 * on the train split of the labelled corpus only (never the held-out split); the weights ship in
 * `classifier-weights.json`. Training is deterministic: full-batch gradient descent from zero
 * weights, a fixed number of steps, features in sorted order, weights rounded.
 */
export interface ClassifierWeights {
  /** Bumped with the feature set: weights of another version are not read. */
  featureVersion: number;
  classes: Category[];
  bias: number[];
  /** Per feature, one weight per class (features seen fewer than `minCount` times are absent). */
  weights: Record<string, number[]>;
  training: TrainingOptions & { examples: number; conversations: number; split: string };
}

export const FEATURE_VERSION = 1;

export interface TrainingOptions {
  iterations: number;
  learningRate: number;
  l2: number;
  minCount: number;
}

export const DEFAULT_TRAINING: TrainingOptions = { iterations: 400, learningRate: 0.5, l2: 0.002, minCount: 2 };

export interface TrainingExample {
  features: readonly string[];
  label: Category;
}

/** Categories a speaker's segment may take: the assistant neither decides, nor takes on tasks, nor asks the person's questions. */
const ALLOWED: Record<Segment['role'], ReadonlySet<Category>> = {
  user: new Set(CATEGORIES),
  assistant: new Set<Category>(['Facts', 'Ideas', 'Constraints', 'Provisional/Exploratory']),
  system: new Set<Category>(['Facts', 'Ideas', 'Constraints', 'Provisional/Exploratory']),
  tool: new Set<Category>(['Facts']),
};

function softmax(scores: number[]): number[] {
  const max = Math.max(...scores);
  const exp = scores.map((s) => Math.exp(s - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / sum);
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

export function trainCategoryClassifier(
  examples: readonly TrainingExample[],
  options: TrainingOptions = DEFAULT_TRAINING,
  about: { conversations: number; split: string } = { conversations: 0, split: 'train' },
): ClassifierWeights {
  const counts = new Map<string, number>();
  for (const e of examples) for (const f of e.features) counts.set(f, (counts.get(f) ?? 0) + 1);
  const vocabulary = [...counts.entries()]
    .filter(([, n]) => n >= options.minCount)
    .map(([f]) => f)
    .sort();
  const index = new Map(vocabulary.map((f, i) => [f, i]));
  const classes = [...CATEGORIES];
  const k = classes.length;
  const rows = examples.map((e) => ({
    x: [...new Set(e.features.map((f) => index.get(f)).filter((i): i is number => i !== undefined))].sort((a, b) => a - b),
    y: classes.indexOf(e.label),
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
    featureVersion: FEATURE_VERSION,
    classes,
    bias: b.map(round),
    weights,
    training: { ...options, examples: rows.length, conversations: about.conversations, split: about.split },
  };
}

/** Scores per class for one segment (features the weights do not know count for nothing). */
export function classScores(weights: ClassifierWeights, segment: Segment): number[] {
  const scores = [...weights.bias];
  for (const f of segmentFeatures(segment)) {
    const row = weights.weights[f];
    if (row) row.forEach((v, c) => (scores[c]! += v));
  }
  return scores;
}

/**
 * The classifier as a categorizer: the best-scoring category the speaker may take. A segment the
 * rules made by adopting the assistant's suggestion stays a Decision (its text is the adopted one).
 */
export function classifierCategorizer(weights: ClassifierWeights): Categorizer {
  if (weights.featureVersion !== FEATURE_VERSION)
    throw new Error(`Classifier weights are for features v${weights.featureVersion}, not v${FEATURE_VERSION}.`);
  return (segment) => {
    if (segment.cue === 'adoption') return 'Decisions';
    const allowed = ALLOWED[segment.role];
    const scores = classScores(weights, segment);
    let best: Category = segment.category;
    let bestScore = -Infinity;
    weights.classes.forEach((c, i) => {
      if (allowed.has(c) && scores[i]! > bestScore) {
        best = c;
        bestScore = scores[i]!;
      }
    });
    return best;
  };
}
