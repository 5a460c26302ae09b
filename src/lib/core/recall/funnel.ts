/**
 * The selection funnel (DESIGN read path 4), in order: retrieve wider (width) -> similarity floor ->
 * fit-gate -> provenance rank (gate-first) -> provenance-preserving dedup -> token-cap backstop.
 * Every dropped candidate carries its stage and reason. If nothing survives, the outcome says the
 * vault holds nothing on this and lists the closest misses; it never pads. Switched off, the outcome
 * is the plain hybrid ranking (fused order, nothing dropped) for comparison.
 */
import { dedupByProvenance, NEAR_DUPLICATE_JACCARD } from './dedup';
import { fitGate, type FitGateOptions } from './fit-gate';
import { provenanceRank } from './provenance-rank';
import { applyFloor } from './similarity-floor';
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
  gate?: FitGateOptions;
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
  gateMs: number;
}

const bySimilarity = (a: DroppedCandidate, b: DroppedCandidate) =>
  (b.candidate.signals.vectorSimilarity ?? -1) - (a.candidate.signals.vectorSimilarity ?? -1) ||
  b.candidate.signals.rrf - a.candidate.signals.rrf;

function holdsNothing(emptyAt: HoldsNothing['emptyAt'], misses: readonly DroppedCandidate[]): HoldsNothing {
  const message =
    emptyAt === 'retrieval'
      ? 'The vault holds nothing on this: no memory matched any word or meaning of the prompt.'
      : emptyAt === 'floor'
        ? 'The vault holds nothing on this: every match was below the similarity floor.'
        : 'The vault holds nothing on this: the fit-gate judged every match off-topic.';
  return { emptyAt, message, closestMisses: [...misses].sort(bySimilarity).slice(0, CLOSEST_MISSES) };
}

const GATE_SKIPPED: GateStatus = { ran: false, reason: 'no-candidates', message: 'nothing reached the fit-gate' };

/** `fused` must be in fused (RRF) order, as retrieve returns it. */
export async function runFunnel(fused: readonly ScoredCandidate[], intent: string, options: FunnelOptions): Promise<FunnelOutcome> {
  if (!options.enabled) {
    const gate: GateStatus = { ran: false, reason: 'disabled', message: 'the funnel is switched off: plain hybrid ranking' };
    return { items: [...fused], dropped: [], gate, floor: null, tokenCap: null, holdsNothing: null, gateMs: 0 };
  }
  const tokensOf = tokenSizer(options.countTokens ?? defaultCounter);
  const maxWidth = Math.max(options.maxWidth ?? MAX_WIDTH, options.width ?? DEFAULT_FUNNEL_WIDTH);
  const width = funnelWidth(fused, options.width ?? DEFAULT_FUNNEL_WIDTH, options.minWidthTokens ?? MIN_WIDTH_TOKENS, maxWidth, tokensOf);
  const dropped: DroppedCandidate[] = fused
    .slice(width)
    .map((candidate, i) => ({ candidate, stage: 'width', reason: `fused rank ${width + i + 1} is beyond the funnel width ${width}` }));
  const base = { floor: options.floor, tokenCap: null, gateMs: 0 };
  if (fused.length === 0) return { ...base, items: [], dropped, gate: GATE_SKIPPED, holdsNothing: holdsNothing('retrieval', []) };

  const floored = applyFloor(fused.slice(0, width), options.floor.value);
  dropped.push(...floored.dropped);
  if (floored.kept.length === 0)
    return { ...base, items: [], dropped, gate: GATE_SKIPPED, holdsNothing: holdsNothing('floor', floored.dropped) };

  const gated = await fitGate(intent, floored.kept, options.gate ?? {});
  dropped.push(...gated.dropped);
  const gateMs = gated.status.ran ? gated.status.ms : 0;
  if (gated.kept.length === 0) {
    return { ...base, gateMs, items: [], dropped, gate: gated.status, holdsNothing: holdsNothing('fit-gate', gated.dropped) };
  }

  const unique = dedupByProvenance(provenanceRank(gated.kept), options.nearDuplicateJaccard ?? NEAR_DUPLICATE_JACCARD);
  dropped.push(...unique.dropped);
  const capped = applyTokenCap(unique.kept, options.tokenCap ?? DEFAULT_TOKEN_CAP, tokensOf);
  dropped.push(...capped.dropped);
  return { ...base, gateMs, items: capped.kept, dropped, gate: gated.status, tokenCap: capped.status, holdsNothing: null };
}
