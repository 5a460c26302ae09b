/**
 * Scoring: score = rank weight x provenance weight x recency (DESIGN, read path 3).
 *
 * - rank weight (the `relevance` key of ScoreBreakdown, kept for stable JSON): a function of the
 *   fused rank (see RELEVANCE_HALF_RANK), not a similarity. Rank fusion is comparable across
 *   embedders and BM25 where raw cosines and BM25 scores are not; how much of the prompt a memory
 *   holds is judged apart (term-coverage.ts).
 * - provenance: how much the vault trusts the tier. An engram is a note the person kept (1.0); a
 *   resource is a document they added (0.8); a chat turn is what was said, not what was settled (0.6);
 *   a captured web page or shared link is someone else's text (0.1, tier web: capture/to-parsed.ts).
 * - recency: by confidence tier (confidence-tier.ts: Core never fades; Hot, Warm and Cold halve in
 *   4, 2 and 1 years unread). Weibull survival R(t) = exp(-ln2 * (t / h)^BETA), so R(h) = 0.5
 *   exactly; BETA < 1 gives the heavy tail of human forgetting curves (fast early, slow later). The
 *   clock starts at the last read (or creation) and the half-life grows with the access count,
 *   capped, so reading a memory extends its life without making it immortal. Notes and chunks
 *   alike: recall writes reads back for both (accessWrites).
 */
import type { Tier } from '../records';
import { confidenceTierOf, TIER_HALF_LIFE_MS, type ConfidenceTier } from './confidence-tier';
import type { CandidateRecord } from './ports';
import type { AccessWrite, Candidate, ScoreBreakdown, ScoredCandidate } from './types';

export const PROVENANCE_WEIGHTS: Readonly<Record<Tier, number>> = { engram: 1.0, resource: 0.8, chat: 0.6, web: 0.1 };

export const RECENCY = {
  /**
   * Half-life of an unread Cold memory (chat): a year, so last season's talk stays in play. Measured on
   * LoCoMo dev (which asks about every session alike, so any decay costs recall there; funnel without
   * a gate, test-double index): half-life 180 / 365 / 730 days cost 0.062 / 0.035 / 0.014 recall@10
   * and 0.155 / 0.109 / 0.056 recall@5 against no decay.
   */
  baseHalfLifeMs: TIER_HALF_LIFE_MS.cold!,
  /** Weibull shape below 1: heavy tail, so two-year-old talk still ranks (R(730 d) = 0.27 unread). */
  shape: 0.8,
  /** Each read adds half a base half-life... */
  halfLifeGrowthPerAccess: 0.5,
  /** ...for at most 10 reads: a memory read often lives up to 6 base half-lives (about 3 years). */
  maxCountedAccesses: 10,
} as const;

export function provenanceWeight(tier: Tier): number {
  return PROVENANCE_WEIGHTS[tier];
}

/** Half-life (ms) of a memory of `tier` after `accessCount` reads; Infinity for Core. */
export function halfLifeMs(accessCount: number, tier: ConfidenceTier = 'cold'): number {
  const base = TIER_HALF_LIFE_MS[tier];
  if (base === null) return Number.POSITIVE_INFINITY;
  const counted = Math.min(Math.max(0, Math.floor(accessCount)), RECENCY.maxCountedAccesses);
  return base * (1 + RECENCY.halfLifeGrowthPerAccess * counted);
}

/** Weibull survival of a memory of age `ageMs`; 1 for ages <= 0 (clock skew never boosts) and for an infinite half-life. */
export function weibullRecency(ageMs: number, halfLife: number, shape: number = RECENCY.shape): number {
  if (ageMs <= 0 || halfLife === Number.POSITIVE_INFINITY) return 1;
  return Math.exp(-Math.LN2 * Math.pow(ageMs / halfLife, shape));
}

export type RecencySource = Pick<CandidateRecord, 'tier' | 'createdAt' | 'lastAccessedAt' | 'accessCount'> &
  Partial<Pick<CandidateRecord, 'pinned' | 'confidenceTier'>>;

export function recencyFactor(record: RecencySource, now: number): number {
  const tier = confidenceTierOf({ tier: record.tier, pinned: record.pinned ?? false, confidenceTier: record.confidenceTier });
  const since = Math.max(record.createdAt, record.lastAccessedAt ?? record.createdAt);
  return weibullRecency(now - since, halfLifeMs(record.accessCount, tier));
}

/**
 * Relevance falls with the fused rank: H / (H + rank), rank 0-based. The ratio RRF / best RRF is
 * nearly flat (15th place keeps ~0.8), so any recency or provenance factor would swamp it; with
 * H = 10, provenance 1.0 vs 0.6 is worth about seven fused ranks and a year of age (0.5) about ten.
 * On LoCoMo dev (test-double index, no gate) the funnel's recall@10 was 0.441 with the RRF ratio and
 * 0.518 / 0.532 / 0.539 with H = 20 / 10 / 5; plain hybrid ranking: 0.532.
 */
export const RELEVANCE_HALF_RANK = 10;

export function relevanceAtRank(rank: number): number {
  return RELEVANCE_HALF_RANK / (RELEVANCE_HALF_RANK + Math.max(0, rank));
}

export interface ScoringOptions {
  /** Recency decay (default true); false scores every memory as if just made. */
  recency?: boolean;
}

/** `rank`: 0-based position in the fused order. */
export function scoreCandidate(candidate: Candidate, rank: number, now: number, options: ScoringOptions = {}): ScoreBreakdown {
  const relevance = relevanceAtRank(rank);
  const provenance = provenanceWeight(candidate.record.tier);
  const recency = options.recency === false ? 1 : recencyFactor(candidate.record, now);
  return { relevance, provenance, recency, score: relevance * provenance * recency };
}

/** Scores the candidates of one query, given in fused order. */
export function scoreAll(fusedOrder: readonly Candidate[], now: number, options: ScoringOptions = {}): ScoredCandidate[] {
  return fusedOrder.map((c, i) => ({ ...c, scores: scoreCandidate(c, i, now, options), gateReason: null }));
}

/**
 * The reads to write back: one per distinct item shown, notes and chunks alike (both decay, and a
 * read lengthens the half-life of either). The caller persists them in one batched, non-blocking
 * write; recall never waits for it.
 */
export function accessWrites(items: readonly { record: Pick<CandidateRecord, 'id' | 'kind'> }[], now: number): AccessWrite[] {
  const seen = new Set<string>();
  const out: AccessWrite[] = [];
  for (const { record } of items) {
    // A structural unit is rebuilt from its sources; it has no reads to keep.
    if (seen.has(record.id) || record.kind === 'structure') continue;
    seen.add(record.id);
    out.push({ id: record.id, kind: record.kind, at: now });
  }
  return out;
}
