/**
 * Token-cap backstop: after the funnel, the survivors' tokens are capped (default 58k). It should
 * never fire with a ~15-wide funnel; when it does, it says so and names what it dropped.
 */
import type { DroppedCandidate, ScoredCandidate, TokenCapStatus } from './types';

export const DEFAULT_TOKEN_CAP = 58_000;

/** Walks in rank order; an item that would overflow is dropped and smaller later items may still fit. */
export function applyTokenCap(
  ranked: readonly ScoredCandidate[],
  cap: number,
  tokensOf: (candidate: ScoredCandidate) => number,
): { kept: ScoredCandidate[]; dropped: DroppedCandidate[]; status: TokenCapStatus } {
  const kept: ScoredCandidate[] = [];
  const dropped: DroppedCandidate[] = [];
  let used = 0;
  let before = 0;
  for (const candidate of ranked) {
    const tokens = tokensOf(candidate);
    before += tokens;
    if (used + tokens <= cap) {
      kept.push(candidate);
      used += tokens;
    } else {
      dropped.push({ candidate, stage: 'token-cap', reason: `${tokens} tokens would pass the ${cap}-token cap (${used} already used)` });
    }
  }
  return { kept, dropped, status: { cap, fired: dropped.length > 0, tokensBefore: before, dropped: dropped.length } };
}
