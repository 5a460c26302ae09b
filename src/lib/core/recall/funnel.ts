/**
 * The selection funnel (DESIGN read path 4), in order: retrieve wider (width) -> similarity floor ->
 * model-free relevance (term coverage) and refusal with evidence (subject check) -> what the floor
 * dropped that BM25 found and the prompt's words hold, spared once the prompt is answerable -> fit-gate ->
 * reranker behind its attention gate (rerank.ts) -> provenance rank (gate-first) ->
 * provenance-preserving dedup -> token-cap backstop.
 * Every dropped candidate carries its stage and reason. If nothing survives, the outcome says the
 * vault holds nothing on this and lists the closest misses; it never pads. Switched off, the outcome
 * is the plain hybrid ranking (fused order, nothing dropped) for comparison.
 */
import { dedupByProvenance, NEAR_DUPLICATE_JACCARD } from './dedup';
import { fitGate, type FitGateOptions } from './fit-gate';
import { provenanceRank } from './provenance-rank';
import { rerankStage, type RerankOptions, type RerankStatus } from './rerank';
import { applyFloor } from './similarity-floor';
import { checkSubject, type SubjectCheck, type SubjectCheckOptions } from './subject-check';
import { describeCoverage, type RelevanceOptions, type RelevanceStatus, type TermCoverage } from './term-coverage';
import { applyTokenCap, DEFAULT_TOKEN_CAP } from './token-cap';
import { countTokens as defaultCounter, type TokenCounter } from '../text/token-count';
import type { DroppedCandidate, FloorStatus, GateStatus, HoldsNothing, ScoredCandidate, TokenCapStatus } from './types';

/**
 * Retrieve wider: at least 15 candidates after fusion (not 5). Atomic notes and single turns are
 * 20-40 tokens, so 15 of them fill ~500 tokens; the width then grows in fused order until the
 * candidates hold MIN_WIDTH_TOKENS, up to MAX_WIDTH. The gate's cost is the tokens it reads, so
 * this keeps its input about the same whatever the size of the items. On LoCoMo dev (single turns,
 * test-double index) width 15 held recall at a 1,000-token budget to 0.58 against 0.66 at width 40.
 */
export const DEFAULT_FUNNEL_WIDTH = 15;
export const MIN_WIDTH_TOKENS = 1_500;
export const MAX_WIDTH = 50;
export const CLOSEST_MISSES = 5;

/**
 * Tokens of a candidate for the width and the cap (both backstops): the count stored with the record
 * (the chunker counts with the same o200k tokenizer), else counted once. Budget assembly recounts
 * the rendered package exactly.
 */
function tokenSizer(count: TokenCounter): (candidate: ScoredCandidate) => number {
  const counted = new Map<string, number>();
  return ({ record }) => {
    if (record.tokenCount > 0) return record.tokenCount;
    const known = counted.get(record.id);
    if (known !== undefined) return known;
    const tokens = count(record.text);
    counted.set(record.id, tokens);
    return tokens;
  };
}

/** How many fused candidates enter the funnel. */
export function funnelWidth(
  fused: readonly ScoredCandidate[],
  width: number,
  minTokens: number,
  maxWidth: number,
  tokensOf: (candidate: ScoredCandidate) => number,
): number {
  let n = Math.min(width, fused.length);
  let tokens = fused.slice(0, n).reduce((sum, c) => sum + tokensOf(c), 0);
  while (n < Math.min(maxWidth, fused.length) && tokens < minTokens) {
    tokens += tokensOf(fused[n]!);
    n += 1;
  }
  return n;
}

export interface FunnelOptions {
  /** The one switch: false gives the plain hybrid ranking. */
  enabled: boolean;
  width?: number;
  minWidthTokens?: number;
  maxWidth?: number;
  floor: FloorStatus;
  /** The prompt's term coverage per candidate and the stage's settings; null skips the stage. */
  relevance?: { judgment: TermCoverage; options: RelevanceOptions } | null;
  /** Refusal with evidence (subject-check.ts): the prompt and the check's settings; null skips it. */
  subject?: { prompt: string; options: SubjectCheckOptions } | null;
  /**
   * Once the prompt is answerable, what the floor dropped that BM25 found and that holds this share
   * of the best coverage is kept (spareLexical); null spares nothing. Default FLOOR_SPARE_RATIO.
   */
  floorSpareRatio?: number | null;
  gate?: FitGateOptions;
  /** The second stage (cross-encoder) over the gate's survivors, before provenance rank. */
  rerank?: RerankOptions;
  tokenCap?: number;
  nearDuplicateJaccard?: number;
  countTokens?: TokenCounter;
}

export interface FunnelOutcome {
  items: ScoredCandidate[];
  dropped: DroppedCandidate[];
  gate: GateStatus;
  floor: FloorStatus | null;
  tokenCap: TokenCapStatus | null;
  holdsNothing: HoldsNothing | null;
  relevance: RelevanceStatus | null;
  subject: SubjectCheck | null;
  gateMs: number;
  rerank: RerankStatus;
  rerankMs: number;
}

const bySimilarity = (a: DroppedCandidate, b: DroppedCandidate) =>
  (b.candidate.signals.vectorSimilarity ?? -1) - (a.candidate.signals.vectorSimilarity ?? -1) ||
  b.candidate.signals.rrf - a.candidate.signals.rrf;

export const EMPTY_MESSAGES: Record<HoldsNothing['emptyAt'], string> = {
  retrieval: 'The vault holds nothing on this: no memory matched any word or meaning of the prompt.',
  floor: 'The vault holds nothing on this: every match was below the similarity floor.',
  relevance: 'The vault holds nothing on this: no memory holds enough of what the prompt is about.',
  subject: 'The vault holds nothing on this about the person it names.',
  'fit-gate': 'The vault holds nothing on this: the fit-gate judged every match off-topic.',
  validity: 'The vault holds nothing on this that is still valid: every match stated a time that has passed.',
};

function holdsNothing(emptyAt: HoldsNothing['emptyAt'], misses: readonly DroppedCandidate[], why?: string): HoldsNothing {
  const message = why ? `${EMPTY_MESSAGES[emptyAt].replace(/\.$/u, '')} (${why}).` : EMPTY_MESSAGES[emptyAt];
  return { emptyAt, message, closestMisses: [...misses].sort(bySimilarity).slice(0, CLOSEST_MISSES) };
}

const GATE_SKIPPED: GateStatus = { ran: false, reason: 'no-candidates', message: 'nothing reached the fit-gate' };
const RERANK_SKIPPED: RerankStatus = { ran: false, reason: 'no-candidates', message: 'nothing reached the reranker' };

/** `fused` must be in fused (RRF) order, as retrieve returns it. */
export async function runFunnel(fused: readonly ScoredCandidate[], intent: string, options: FunnelOptions): Promise<FunnelOutcome> {
  if (!options.enabled) {
    const gate: GateStatus = { ran: false, reason: 'disabled', message: 'the funnel is switched off: plain hybrid ranking' };
    const rerank: RerankStatus = { ran: false, reason: 'disabled', message: 'the funnel is switched off' };
    return {
      items: [...fused],
      dropped: [],
      gate,
      floor: null,
      tokenCap: null,
      holdsNothing: null,
      relevance: null,
      subject: null,
      gateMs: 0,
      rerank,
      rerankMs: 0,
    };
  }
  const tokensOf = tokenSizer(options.countTokens ?? defaultCounter);
  const maxWidth = Math.max(options.maxWidth ?? MAX_WIDTH, options.width ?? DEFAULT_FUNNEL_WIDTH);
  const width = funnelWidth(fused, options.width ?? DEFAULT_FUNNEL_WIDTH, options.minWidthTokens ?? MIN_WIDTH_TOKENS, maxWidth, tokensOf);
  let dropped: DroppedCandidate[] = fused
    .slice(width)
    .map((candidate, i) => ({ candidate, stage: 'width', reason: `fused rank ${width + i + 1} is beyond the funnel width ${width}` }));
  const base = { floor: options.floor, tokenCap: null, gateMs: 0, relevance: null, subject: null, rerank: RERANK_SKIPPED, rerankMs: 0 };
  if (fused.length === 0) return { ...base, items: [], dropped, gate: GATE_SKIPPED, holdsNothing: holdsNothing('retrieval', []) };

  const floored = applyFloor(fused.slice(0, width), options.floor.value);
  dropped.push(...floored.dropped);
  if (floored.kept.length === 0)
    return { ...base, items: [], dropped, gate: GATE_SKIPPED, holdsNothing: holdsNothing('floor', floored.dropped) };

  const judged = applyRelevance(floored.kept, options.relevance ?? null);
  dropped.push(...judged.dropped);
  const relevant = { ...base, relevance: judged.status };
  if (judged.kept.length === 0) {
    const why = options.relevance ? describeCoverage(options.relevance.judgment) : undefined;
    return { ...relevant, items: [], dropped, gate: GATE_SKIPPED, holdsNothing: holdsNothing('relevance', judged.dropped, why) };
  }

  const subject =
    options.relevance && options.subject
      ? checkSubject(options.subject.prompt, judged.kept, options.relevance.judgment, options.subject.options)
      : null;
  if (subject?.mismatch) {
    const misses = judged.kept
      .filter((c) => subject.matching.includes(c.record.id))
      .map((candidate): DroppedCandidate => ({ candidate, stage: 'relevance', reason: subjectReason(subject) }));
    const why = subjectReason(subject);
    return {
      ...relevant,
      subject,
      items: [],
      dropped: [...dropped, ...misses],
      gate: GATE_SKIPPED,
      holdsNothing: holdsNothing('subject', misses, why),
    };
  }

  const spareRatio = options.floorSpareRatio === undefined ? FLOOR_SPARE_RATIO : options.floorSpareRatio;
  const spared = spareRatio === null ? [] : spareLexical(floored.dropped, judged.status, options.relevance ?? null, spareRatio);
  const inOrder = spared.length === 0 ? judged.kept : inFusedOrder(fused, [...judged.kept, ...spared]);
  if (spared.length > 0) {
    // A spared candidate is no longer a floor drop (it was one of floored.dropped, listed once).
    const spareIds = new Set(spared.map((c) => c.record.id));
    dropped = dropped.filter((d) => !spareIds.has(d.candidate.record.id));
  }

  const gated = await fitGate(intent, inOrder, options.gate ?? {});
  dropped.push(...gated.dropped);
  const gateMs = gated.status.ran ? gated.status.ms : 0;
  if (gated.kept.length === 0) {
    return { ...relevant, subject, gateMs, items: [], dropped, gate: gated.status, holdsNothing: holdsNothing('fit-gate', gated.dropped) };
  }

  const reranked = await rerankStage(gated.kept, options.rerank ?? {});
  const unique = dedupByProvenance(provenanceRank(reranked.candidates), options.nearDuplicateJaccard ?? NEAR_DUPLICATE_JACCARD);
  dropped.push(...unique.dropped);
  const capped = applyTokenCap(unique.kept, options.tokenCap ?? DEFAULT_TOKEN_CAP, tokensOf);
  dropped.push(...capped.dropped);
  const rerank = { rerank: reranked.status, rerankMs: reranked.ms };
  return {
    ...relevant,
    ...(spared.length > 0 ? { floor: { ...options.floor, spared: spared.length } } : {}),
    subject,
    gateMs,
    ...rerank,
    items: capped.kept,
    dropped,
    gate: gated.status,
    tokenCap: capped.status,
    holdsNothing: null,
  };
}

/**
 * What the floor dropped that BM25 found and that holds at least `spareRatio` of the best
 * candidate's coverage of the prompt is kept. The floor is a noise backstop for the semantic path,
 * and an answer BM25 found through its neighbours' words shares few of the prompt's own, so its
 * cosine is low (LoCoMo dev: "How did Nate celebrate winning the international tournament?", found
 * at fused rank 11 with cosine 0.045, under the floor 0.05). It runs only once the prompt is
 * answerable: refusals still see the floored set, so none of them moves.
 *
 * recall.ts passes null for a GLOBAL prompt (a big picture is answered from whole sessions).
 *
 * The ratio, measured on LoCoMo dev through the app path (`eval locomo --modes funnel`, 2026-12-02;
 * GLOBAL prompts spared nothing; hybrid gives 0.855 at 1,000 tokens; false refusals 0.92 % and
 * category 5 30.0 % at every column):
 *   ratio            none    1.0     0.8     0.65    0.5     0.35    0.2 (keepRatio)
 *   @10              0.767   0.767   0.771   0.770   0.770   0.769   0.769
 *   1,000 tokens     0.843   0.846   0.850   0.850   0.852   0.852   0.851
 *   precision        0.052   0.048   0.047   0.046   0.046   0.044   0.043
 *   mean tokens      1,111   1,128   1,144   1,162   1,191   1,226   1,261
 * 0.5: the largest ratio (the fewest items added, the most precision kept) that gives the most
 * recall at 1,000 tokens. Sparing for GLOBAL prompts too picks 0.5 by the same rule (0.856 there) but
 * lowers `eval global`'s share of package items from the prompt's chat from 57.0 % to 54.1 %
 * (services/recall/README.md, "The floor spares lexical matches").
 */
export const FLOOR_SPARE_RATIO = 0.5;

function spareLexical(
  floorDrops: readonly DroppedCandidate[],
  status: RelevanceStatus | null,
  relevance: { judgment: TermCoverage; options: RelevanceOptions } | null,
  spareRatio: number,
): ScoredCandidate[] {
  if (!relevance || !status) return [];
  const least = Math.max(relevance.options.keepRatio, spareRatio) * status.best;
  return floorDrops
    .map((d) => d.candidate)
    .filter((c) => c.signals.bm25Rank !== null && (relevance.judgment.coverage.get(c.record.id) ?? -1) >= least);
}

/** `candidates` in the order of `fused`. */
function inFusedOrder(fused: readonly ScoredCandidate[], candidates: readonly ScoredCandidate[]): ScoredCandidate[] {
  const at = new Map(fused.map((c, i) => [c.record.id, i]));
  return [...candidates].sort((a, b) => (at.get(a.record.id) ?? 0) - (at.get(b.record.id) ?? 0));
}

function subjectReason(subject: SubjectCheck): string {
  const others = subject.others.length > 0 ? subject.others.join(' and ') : 'someone else';
  return `the prompt names ${subject.named.join(' and ')}, but every memory that matches the rest of it is about ${others}`;
}

/**
 * The relevance stage: nothing is kept when the best candidate holds less than `refuseBelow` of the
 * prompt's informative vocabulary; otherwise candidates far below the best (under `keepRatio` of
 * its coverage) are dropped. A candidate that was not judged (no keyword document) is kept.
 */
export function applyRelevance(
  candidates: readonly ScoredCandidate[],
  relevance: { judgment: TermCoverage; options: RelevanceOptions } | null,
): { kept: ScoredCandidate[]; dropped: DroppedCandidate[]; status: RelevanceStatus | null } {
  if (!relevance) return { kept: [...candidates], dropped: [], status: null };
  const { judgment, options } = relevance;
  const best = Math.max(0, ...candidates.map((c) => judgment.coverage.get(c.record.id) ?? 0));
  const refuse = best < options.refuseBelow;
  const kept: ScoredCandidate[] = [];
  const dropped: DroppedCandidate[] = [];
  for (const candidate of candidates) {
    const share = judgment.coverage.get(candidate.record.id);
    if (share === undefined || (!refuse && share >= options.keepRatio * best)) {
      kept.push(candidate);
      continue;
    }
    const reason = refuse
      ? `it holds ${Math.round(share * 100)} % of the prompt's informative words; the best match holds ${Math.round(best * 100)} %, below ${Math.round(options.refuseBelow * 100)} %`
      : `it holds ${Math.round(share * 100)} % of the prompt's informative words, under ${Math.round(options.keepRatio * 100)} % of the best match's ${Math.round(best * 100)} %`;
    dropped.push({ candidate, stage: 'relevance', reason });
  }
  const status: RelevanceStatus = { ran: true, best, ...options, unknown: judgment.unknown, dropped: dropped.length };
  return { kept: refuse ? kept.filter((c) => judgment.coverage.get(c.record.id) === undefined) : kept, dropped, status };
}
