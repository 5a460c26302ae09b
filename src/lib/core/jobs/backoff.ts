/** Retry delays for failed jobs: exponential growth, capped, with jitter so retries do not align. */

export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 5 * 60_000 };

/**
 * Delay before attempt `attempt + 1` after `attempt` failures (attempt >= 1): "equal jitter", half of
 * the exponential step fixed and half random, so the delay never collapses to zero and still spreads.
 * `rng` returns a number in [0, 1).
 */
export function backoffDelay(attempt: number, rng: () => number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const exponent = Math.max(0, attempt - 1);
  const step = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(exponent, 30));
  const half = step / 2;
  return Math.round(half + rng() * half);
}
