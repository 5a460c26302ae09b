/**
 * Confidence tiers: how fast a memory fades from ranking. Each tier up doubles the half-life of the
 * one below; Core never fades.
 *
 * | tier | who is in it                                                      | base half-life |
 * | ---- | ----------------------------------------------------------------- | -------------- |
 * | core | notes the person pinned                                           | never fades    |
 * | hot  | notes promoted on the person's own signals (an accepted proposal) | 4 years        |
 * | warm | kept notes, documents the person added                            | 2 years        |
 * | cold | chat turns, captured web pages, unreviewed candidates             | 1 year         |
 *
 * Cold keeps the one value measured on LoCoMo for chat (scoring.ts RECENCY: 180 / 365 / 730 days
 * cost 0.062 / 0.035 / 0.014 recall@10 there, where every session is asked about alike). Reads
 * lengthen any tier's half-life the same way, up to a cap (scoring.ts `halfLifeMs`).
 */
import type { ConfidenceTier, Tier } from '../records';

export type { ConfidenceTier } from '../records';

export const CONFIDENCE_TIERS: readonly ConfidenceTier[] = ['core', 'hot', 'warm', 'cold'];

const DAY_MS = 86_400_000;

/** Base half-life of an unread memory of each tier (ms); null: never fades. */
export const TIER_HALF_LIFE_MS: Readonly<Record<ConfidenceTier, number | null>> = {
  core: null,
  hot: 4 * 365 * DAY_MS,
  warm: 2 * 365 * DAY_MS,
  cold: 365 * DAY_MS,
};

/** What the tier of a record is derived from (recall's candidates, notes, chunks). */
export interface TierSource {
  tier: Tier;
  pinned: boolean;
  /** A tier the person accepted (a promotion); wins over the derived one, never over a pin. */
  confidenceTier?: ConfidenceTier;
}

/** A pin is Core; else the stored tier; else kept notes and documents Warm, chat and web Cold. */
export function confidenceTierOf(record: TierSource): ConfidenceTier {
  if (record.pinned) return 'core';
  if (record.confidenceTier) return record.confidenceTier;
  return record.tier === 'engram' || record.tier === 'resource' ? 'warm' : 'cold';
}

/** The next tier up (promotion never makes Core: only a pin does). */
export function tierAbove(tier: ConfidenceTier): ConfidenceTier | null {
  if (tier === 'cold') return 'warm';
  if (tier === 'warm') return 'hot';
  return null;
}
