import type { Role } from '../records';
import { corpusMessages, goldUnits, type GoldUnit, type LabelledConversation } from './labelled-corpus';
import { CATEGORIES, type CandidateUnit, type Category, type ExtractionMessage } from './units';
import { NEGATORS, STOP_WORDS, stem, tokens } from './words';

/**
 * Extraction scored against the labelled corpus: per-category precision, recall and F1, macro-F1.
 *
 * Matching rule (exact). T(x) = the Porter-stemmed content words of x (lowercased word tokens,
 * stop words and negators removed) plus every number, one digit included ("day 3"). A predicted
 * unit p may match a gold unit g when
 *   1. p cites g's turn,
 *   2. both or neither contain a negator ("no", "not", "never", "n't", "without", ...): a unit that
 *      lost its negation does not match, and
 *   3. Dice(T(g), T(p)) = 2|T(g) ∩ T(p)| / (|T(g)| + |T(p)|) >= MATCH_THRESHOLD.
 * Per category c, gold and predicted units of category c are paired one-to-one, greedily by
 * descending Dice (ties: corpus order): matched_c pairs. precision_c = matched_c / predicted_c,
 * recall_c = matched_c / gold_c, F1 their harmonic mean (0 when undefined). Macro-F1 is the mean
 * F1 over the categories with at least one gold or predicted unit. The same pairing over all
 * categories at once (same-category pairs first) gives `detection` and the confusion counts.
 */
export const MATCH_THRESHOLD = 0.5;
/** Thresholds reported in `curve`, to show how much the choice of MATCH_THRESHOLD matters. */
export const CURVE_THRESHOLDS = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8] as const;

export const MATCH_RULE =
  `A predicted unit matches a gold unit when it cites the gold unit's turn, both or neither carry a negation, ` +
  `and the Dice overlap of their stemmed content words (numbers included) is at least ${MATCH_THRESHOLD}; ` +
  `pairs are one-to-one, greedy by overlap, within a category for precision/recall/F1.`;

export type ConversationExtractor = (messages: ExtractionMessage[]) => Promise<CandidateUnit[]>;

export interface CategoryScore {
  gold: number;
  predicted: number;
  matched: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface LabelledReport {
  extractor: string;
  conversations: number;
  turns: number;
  goldUnits: number;
  predictedUnits: number;
  byCategory: Record<Category, CategoryScore>;
  macroF1: number;
  /** Units found regardless of category. */
  detection: { matched: number; precision: number; recall: number; f1: number };
  /** Gold category -> predicted category of its match, or `missed`. */
  confusion: Record<Category, Record<string, number>>;
  /** Predicted Decisions that cite an assistant turn (must be 0). */
  decisionsCitingAssistant: number;
  /** Share of Facts among gold and among predicted units. */
  factShare: { gold: number; predicted: number };
  unitsPerTurn: { gold: number; predicted: number };
  curve: { threshold: number; macroF1: number; decisionsF1: number }[];
  rule: string;
}

export interface ScoredConversation {
  split: string;
  conversation: LabelledConversation;
  gold: GoldUnit[];
  predicted: CandidateUnit[];
  roles: Map<string, Role>;
}

interface Terms {
  terms: Set<string>;
  negated: boolean;
}

export function unitTerms(text: string): Terms {
  const words = tokens(text);
  const terms = new Set<string>();
  for (const w of words) {
    if (/^\p{N}+$/u.test(w)) terms.add(w);
    else if (w.length > 1 && !STOP_WORDS.has(w) && !NEGATORS.has(w)) terms.add(stem(w));
  }
  return { terms, negated: words.some((w) => NEGATORS.has(w)) };
}

export function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size + b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared += 1;
  return (2 * shared) / (a.size + b.size);
}

interface Pair {
  gold: number;
  predicted: number;
  score: number;
  sameCategory: boolean;
}

/** Every eligible (gold, predicted) pair of one conversation with its Dice score. */
function eligiblePairs(gold: readonly GoldUnit[], predicted: readonly CandidateUnit[], threshold: number): Pair[] {
  const g = gold.map((u) => unitTerms(u.text));
  const p = predicted.map((u) => unitTerms(u.text));
  const pairs: Pair[] = [];
  gold.forEach((gu, i) => {
    predicted.forEach((pu, j) => {
      if (!pu.sourceMessageIds.includes(gu.turnId) || g[i]!.negated !== p[j]!.negated) return;
      const score = dice(g[i]!.terms, p[j]!.terms);
      if (score >= threshold) pairs.push({ gold: i, predicted: j, score, sameCategory: gu.category === pu.category });
    });
  });
  return pairs;
}

/**
 * Which gold unit each predicted unit stands for, whatever their categories: predicted index ->
 * gold index, one-to-one by overlap. The text classifier's training labels come from it.
 */
export function eligibleAlignment(
  gold: readonly GoldUnit[],
  predicted: readonly Pick<CandidateUnit, 'text' | 'sourceMessageIds'>[],
): Map<number, number> {
  const units = predicted.map((p) => ({ ...p, category: 'Facts' }) as CandidateUnit);
  return new Map(assign(eligiblePairs(gold, units, MATCH_THRESHOLD)).map((p) => [p.predicted, p.gold]));
}

/** Greedy one-to-one assignment; `prefer` ranks pairs before the score does. */
function assign(pairs: readonly Pair[], prefer: (p: Pair) => number = () => 0): Pair[] {
  const sorted = [...pairs].sort((a, b) => prefer(b) - prefer(a) || b.score - a.score || a.gold - b.gold || a.predicted - b.predicted);
  const usedGold = new Set<number>();
  const usedPredicted = new Set<number>();
  const out: Pair[] = [];
  for (const pair of sorted) {
    if (usedGold.has(pair.gold) || usedPredicted.has(pair.predicted)) continue;
    usedGold.add(pair.gold);
    usedPredicted.add(pair.predicted);
    out.push(pair);
  }
  return out;
}

const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b);
const round = (x: number): number => Math.round(x * 10_000) / 10_000;
const f1Of = (p: number, r: number): number => (p + r === 0 ? 0 : (2 * p * r) / (p + r));

function emptyCounts(): Record<Category, { gold: number; predicted: number; matched: number }> {
  return Object.fromEntries(CATEGORIES.map((c) => [c, { gold: 0, predicted: 0, matched: 0 }])) as Record<
    Category,
    { gold: number; predicted: number; matched: number }
  >;
}

/** The one-to-one same-category matches of one conversation, as (gold index, predicted index) pairs. */
export function categoryMatches(
  gold: readonly GoldUnit[],
  predicted: readonly CandidateUnit[],
  threshold: number = MATCH_THRESHOLD,
): { gold: number; predicted: number }[] {
  return assign(eligiblePairs(gold, predicted, threshold).filter((p) => p.sameCategory)).map((p) => ({
    gold: p.gold,
    predicted: p.predicted,
  }));
}

function categoryScores(scored: readonly ScoredConversation[], threshold: number) {
  const counts = emptyCounts();
  for (const s of scored) {
    for (const u of s.gold) counts[u.category].gold += 1;
    for (const u of s.predicted) counts[u.category].predicted += 1;
    for (const pair of categoryMatches(s.gold, s.predicted, threshold)) counts[s.gold[pair.gold]!.category].matched += 1;
  }
  const byCategory = {} as Record<Category, CategoryScore>;
  const f1s: number[] = [];
  for (const c of CATEGORIES) {
    const { gold, predicted, matched } = counts[c];
    const precision = ratio(matched, predicted);
    const recall = ratio(matched, gold);
    const f1 = f1Of(precision, recall);
    byCategory[c] = { gold, predicted, matched, precision: round(precision), recall: round(recall), f1: round(f1) };
    if (gold + predicted > 0) f1s.push(f1);
  }
  const macroF1 = round(f1s.reduce((a, b) => a + b, 0) / Math.max(1, f1s.length));
  return { byCategory, macroF1 };
}

/** The report over already extracted conversations (extraction runs once; scoring is cheap). */
export function scoreLabelled(scored: readonly ScoredConversation[], extractor: string): LabelledReport {
  const { byCategory, macroF1 } = categoryScores(scored, MATCH_THRESHOLD);
  const confusion = Object.fromEntries(CATEGORIES.map((c) => [c, {} as Record<string, number>])) as Record<
    Category,
    Record<string, number>
  >;
  let detected = 0;
  let decisionsCitingAssistant = 0;
  let goldTotal = 0;
  let predictedTotal = 0;
  let turns = 0;
  for (const s of scored) {
    turns += s.conversation.turns.length;
    goldTotal += s.gold.length;
    predictedTotal += s.predicted.length;
    for (const u of s.predicted) {
      if (u.category === 'Decisions' && u.sourceMessageIds.some((id) => s.roles.get(id) === 'assistant')) decisionsCitingAssistant += 1;
    }
    const pairs = assign(eligiblePairs(s.gold, s.predicted, MATCH_THRESHOLD), (p) => (p.sameCategory ? 1 : 0));
    detected += pairs.length;
    const matchOf = new Map(pairs.map((p) => [p.gold, p.predicted]));
    s.gold.forEach((g, i) => {
      const j = matchOf.get(i);
      const key = j === undefined ? 'missed' : s.predicted[j]!.category;
      confusion[g.category][key] = (confusion[g.category][key] ?? 0) + 1;
    });
  }
  const precision = ratio(detected, predictedTotal);
  const recall = ratio(detected, goldTotal);
  return {
    extractor,
    conversations: scored.length,
    turns,
    goldUnits: goldTotal,
    predictedUnits: predictedTotal,
    byCategory,
    macroF1,
    detection: { matched: detected, precision: round(precision), recall: round(recall), f1: round(f1Of(precision, recall)) },
    confusion,
    decisionsCitingAssistant,
    factShare: {
      gold: round(ratio(byCategory.Facts.gold, goldTotal)),
      predicted: round(ratio(byCategory.Facts.predicted, predictedTotal)),
    },
    unitsPerTurn: { gold: round(ratio(goldTotal, turns)), predicted: round(ratio(predictedTotal, turns)) },
    curve: CURVE_THRESHOLDS.map((threshold) => {
      const at = categoryScores(scored, threshold);
      return { threshold, macroF1: at.macroF1, decisionsF1: at.byCategory.Decisions.f1 };
    }),
    rule: MATCH_RULE,
  };
}

/** Runs the extractor on every conversation (in order) and keeps what scoring needs. */
export async function extractLabelled(
  corpus: readonly { split: string; conversation: LabelledConversation }[],
  extract: ConversationExtractor,
): Promise<ScoredConversation[]> {
  const out: ScoredConversation[] = [];
  for (const { split, conversation } of corpus) {
    const predicted = await extract(corpusMessages(conversation));
    const roles = new Map<string, Role>(conversation.turns.map((t) => [t.id, t.role]));
    out.push({ split, conversation, gold: goldUnits(conversation), predicted, roles });
  }
  return out;
}
