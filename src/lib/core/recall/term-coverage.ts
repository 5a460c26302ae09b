/**
 * The model-free relevance judgment: how much of the prompt's informative vocabulary a candidate
 * holds, weighted by how rare each word is in this vault. A word the vault never uses weighs the
 * most (the idf of document frequency 0): "How do I tune the PID loop of my espresso machine?"
 * against a vault about irrigation, a trip and a cat's diet leaves "tune", "pid", "loop" and
 * "espresso" unheld, and whatever shares "machine" covers a small share of the prompt. Because the
 * weights are the vault's own document frequencies, the judgment is calibrated per vault: a word
 * every memory uses ("caroline" in a vault of her conversations) weighs little, a rare one a lot.
 *
 * Coverage is read off the keyword document of each candidate (its text with its neighbours'
 * words, bm25-text.ts), the same text BM25 matched, so an answer found by the words of the turn
 * before it is not judged off-topic.
 */
import type { LexicalExplanation } from './ports';

export interface TermCoverage {
  /** The prompt's distinct index terms with their vault statistics. */
  terms: LexicalExplanation['terms'];
  /** Each term's weight (termWeight), in `terms` order. */
  weights: readonly number[];
  /** Terms no document of the vault holds. */
  unknown: string[];
  /** Per candidate id: the share (0..1) of the prompt's idf mass its keyword document holds. */
  coverage: Map<string, number>;
  /** Per candidate id: indices into `terms` of the terms its keyword document holds. */
  held: ReadonlyMap<string, readonly number[]>;
  /** The highest coverage of any candidate (0 without candidates). */
  best: number;
}

/**
 * A term's weight: its idf with the prompt counted as one more document that holds it (add-one
 * smoothing of the document frequency), and `prior` more documents that hold none of the prompt's
 * words. The first keeps an unknown word from weighing infinitely more than a word one memory holds:
 * in a vault of twenty memories every ordinary word of a paraphrase is unknown, and unsmoothed they
 * outweighed the rare words the prompt shares with its answer ("galaxies", "distant" against a note
 * on Hubble's law). The second is a vault-size prior: a vault of one chat cannot tell its subject's
 * words from common ones (they are in most of its memories, so their idf is near 0), and an on-topic
 * prompt looked as if it held only its framing ("give", "overview"); VAULT_PRIOR_DOCUMENTS pseudo
 * documents make those words count until the vault holds many more documents than that.
 */
export function termWeight(df: number, documents: number, prior: number = VAULT_PRIOR_DOCUMENTS): number {
  return Math.log(1 + (documents + prior - df + 0.5) / (df + 1.5));
}

/**
 * The vault-size prior (termWeight), measured through the app path (recall README, "Relevance in
 * first vaults"): on-topic prompts refused in vaults of 1 / 3 / 10 chats (`eval small`, question and
 * big-picture prompts), the off-topic prompts refused (`eval offtopic`: LoCoMo dev vaults and the
 * exports), LoCoMo dev unchanged below 200 (recall, category 5, false refusals):
 *   prior                 0            10           25           50           100          200
 *   1 chat   q / global   47 % / 41 %  13 % / 15 %  7 % / 6 %    5 % / 5 %    5 % / 4 %    5 % / 4 %
 *   3 chats  q / global   7 % / 9 %    5 % / 6 %    5 % / 5 %    5 % / 4 %    3 % / 4 %    3 % / 2 %
 *   off-topic refused     90.6 %       90.0 %       89.6 %       89.3 %       88.2 %       86.9 %
 * 10: the largest that keeps the off-topic refusals at the issue's 90 %.
 */
export const VAULT_PRIOR_DOCUMENTS = 10;

/** The share of the weights' total that the terms at `held` (indices, each once) carry. */
function weightShare(weights: readonly number[], held: Iterable<number>): number {
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (total <= 0) return 0;
  let sum = 0;
  for (const i of held) sum += weights[i]!;
  return sum / total;
}

export function termCoverage(explanation: LexicalExplanation): TermCoverage {
  const weights = explanation.terms.map((t) => termWeight(t.df, explanation.documents));
  const coverage = new Map<string, number>();
  let best = 0;
  for (const [id, held] of explanation.matched) {
    const share = weightShare(weights, held);
    coverage.set(id, share);
    best = Math.max(best, share);
  }
  const unknown = explanation.terms.filter((t) => t.df === 0).map((t) => t.term);
  return { terms: explanation.terms, weights, unknown, coverage, held: explanation.matched, best };
}

/** The share of the prompt's idf mass a set of index terms holds (a structural unit's), weighted as termCoverage weighs a candidate's. */
export function unitCoverage(judgment: TermCoverage, terms: ReadonlySet<string>): number {
  return weightShare(
    judgment.weights,
    judgment.terms.flatMap((t, i) => (terms.has(t.term) ? [i] : [])),
  );
}

/** The share of the prompt's idf mass that several candidates' keyword documents hold together. */
export function jointCoverage(judgment: TermCoverage, ids: Iterable<string>): number {
  const held = new Set<number>();
  for (const id of ids) for (const i of judgment.held.get(id) ?? []) held.add(i);
  return weightShare(judgment.weights, held);
}

/** The settings of the relevance stage (funnel.ts); measured in src/lib/services/recall/README.md. */
export interface RelevanceOptions {
  /** Below this best coverage the vault holds nothing on the prompt. */
  refuseBelow: number;
  /** A candidate covering less than this share of the best candidate's coverage is dropped. */
  keepRatio: number;
}

/**
 * Measured through the app path (recall README, "Relevance and refusal"): the 760 answerable
 * LoCoMo dev questions, and the 120 off-topic prompts of tests/fixtures/recall/off-topic-prompts.json
 * against each of the five LoCoMo dev vaults and a vault of the sample chat exports (720 asks).
 *   refuseBelow        0.15   0.17   0.18   0.19   0.20   0.25
 *   false refusals     0.5 %  0.5 %  0.8 %  0.8 %  0.9 %  1.7 %
 *   off-topic refused  68 %   79 %   84 %   87 %   91 %   96 %
 * 0.20: the most off-topic refusals with false refusals at most 1 %.
 * keepRatio (answerable questions; funnel precision / mean tokens / recall at 1,000 tokens):
 *   0: 0.031 / 1311 / 0.842   0.2: 0.047 / 1164 / 0.841   0.3: 0.063 / 1018 / 0.839   0.5: 0.109 / 636 / 0.809
 * 0.2: the largest that costs recall at 1,000 tokens less than one question (0.0013).
 */
export const DEFAULT_RELEVANCE: RelevanceOptions = { refuseBelow: 0.2, keepRatio: 0.2 };

/** What the relevance stage did, for the trace. */
export interface RelevanceStatus {
  ran: boolean;
  /** The best candidate's coverage of the prompt's informative vocabulary. */
  best: number;
  refuseBelow: number;
  keepRatio: number;
  /** The prompt's terms the vault never uses. */
  unknown: string[];
  dropped: number;
}

/** Terms, weights and coverage in words for a trace or a refusal message. */
export function describeCoverage(judgment: TermCoverage, max = 6): string {
  const unknown = judgment.unknown.slice(0, max);
  const share = `${Math.round(judgment.best * 100)} %`;
  return unknown.length > 0
    ? `the best match holds ${share} of the prompt's informative words; the vault never uses ${unknown.map((t) => `"${t}"`).join(', ')}`
    : `the best match holds ${share} of the prompt's informative words`;
}
