/**
 * The attention gate in front of the reranker (the seeds' three skip rules): the cross-encoder is
 * the slowest stage of a recall, so it runs only when it can change what the person sees.
 *
 * - too few: two or fewer candidates (the package holds them all whatever their order);
 * - dominant first: the top first-stage score leads the second by at least `dominantGap` of itself
 *   (every list agrees on one answer);
 * - tight cluster: every score is within `clusterBand` of the top (the first stage cannot tell
 *   them apart, and neither ordering reaches the package's cut: they are packed together).
 *
 * Scores are the fused (RRF) first-stage scores, where a lead or a band means something: a record
 * at the top of every list and variant has several times the score of one found by a single list.
 * The thresholds were chosen from how often each rule fires on LoCoMo dev (recall README).
 */

export const ATTENTION_DEFAULTS = {
  /** Rerank only from this many candidates up. */
  minCandidates: 3,
  /** Skip when (first - second) / first >= this. */
  dominantGap: 0.5,
  /** Skip when (first - last) / first <= this. */
  clusterBand: 0.05,
} as const;

export type AttentionSkipRule = 'too-few' | 'dominant-first' | 'tight-cluster';

export interface AttentionOptions {
  minCandidates?: number;
  dominantGap?: number;
  clusterBand?: number;
}

/** `gap`: the top's lead over the second, `spread`: over the last, both relative to the top (0..1). */
export type AttentionVerdict =
  { rerank: true; gap: number; spread: number } | { rerank: false; rule: AttentionSkipRule; message: string; gap: number; spread: number };

const pct = (x: number) => `${Math.round(x * 100)} %`;

export function attentionGate(scores: readonly number[], options: AttentionOptions = {}): AttentionVerdict {
  const minCandidates = options.minCandidates ?? ATTENTION_DEFAULTS.minCandidates;
  const dominantGap = options.dominantGap ?? ATTENTION_DEFAULTS.dominantGap;
  const clusterBand = options.clusterBand ?? ATTENTION_DEFAULTS.clusterBand;
  const sorted = [...scores].sort((a, b) => b - a);
  const top = sorted[0] ?? 0;
  const relative = (x: number) => (top > 0 ? (top - x) / top : 0);
  const gap = sorted.length > 1 ? relative(sorted[1]!) : 1;
  const spread = sorted.length > 1 ? relative(sorted[sorted.length - 1]!) : 0;
  if (sorted.length < minCandidates) {
    const n = sorted.length;
    return {
      rerank: false,
      rule: 'too-few',
      message: `${n} candidate${n === 1 ? '' : 's'} (fewer than ${minCandidates}): the package holds them all in any order`,
      gap,
      spread,
    };
  }
  if (spread <= clusterBand + 1e-12) {
    return {
      rerank: false,
      rule: 'tight-cluster',
      message: `all ${sorted.length} first-stage scores are within ${pct(spread)} of the top (band ${pct(clusterBand)})`,
      gap,
      spread,
    };
  }
  if (gap >= dominantGap - 1e-12) {
    return {
      rerank: false,
      rule: 'dominant-first',
      message: `the first candidate is ${pct(gap)} ahead of the second (threshold ${pct(dominantGap)})`,
      gap,
      spread,
    };
  }
  return { rerank: true, gap, spread };
}
