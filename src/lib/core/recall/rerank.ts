/**
 * The second ranking stage: a cross-encoder reads the prompt with each surviving candidate and
 * scores the pair; its score is blended with the first-stage score by intent, and the blend
 * becomes the candidate's relevance, so provenance rank (which runs next) orders by it. It sits
 * behind the attention gate (skip when it cannot help) and its circuit breaker (bypass when it
 * fails); on a skip, a timeout or an error the first-stage order stands and the status says why.
 *
 * Blend (the seeds): 0.3 first stage / 0.7 reranker by default, 0.2 / 0.8 for lookups (a precise
 * question: trust the cross-encoder), 0.5 / 0.5 for exploration (a broad one: keep the first
 * stage's breadth). Both scores are min-max normalized over the candidates, and the blend is
 * mapped back onto the range of the first-stage relevance, so provenance weighs against it
 * exactly as it does without a reranker.
 */
import type { StageGuard } from '../breaker/stage-guard';
import { guardCall } from '../breaker/stage-guard';
import type { BreakerStatus } from '../breaker/circuit-breaker';
import { toVaultError } from '../errors';
import { attentionGate, type AttentionOptions, type AttentionSkipRule } from './attention-gate';
import type { ScoredCandidate } from './types';

/** A cross-encoder as the read path uses it (models/transformers-reranker.ts; a fake in tests). */
export interface Reranker {
  readonly id: string;
  /** One relevance score per passage for the query (higher is more relevant), in order, in one batched call. */
  score(query: string, passages: readonly string[], options?: { signal?: AbortSignal }): Promise<number[]>;
}

export interface BlendWeights {
  first: number;
  rerank: number;
}

export const RERANK_BLEND = {
  default: { first: 0.3, rerank: 0.7 },
  lookup: { first: 0.2, rerank: 0.8 },
  exploration: { first: 0.5, rerank: 0.5 },
} as const satisfies Record<string, BlendWeights>;

/** Intent classes (the router's names, and plain ones) that are lookups or explorations. */
const LOOKUP_CLASSES = new Set(['lookup', 'entity_lookup', 'factual']);
const EXPLORATION_CLASSES = new Set(['exploration', 'exploratory']);

export function blendWeights(intentClass: string | null | undefined): BlendWeights {
  if (intentClass && LOOKUP_CLASSES.has(intentClass)) return RERANK_BLEND.lookup;
  if (intentClass && EXPLORATION_CLASSES.has(intentClass)) return RERANK_BLEND.exploration;
  return RERANK_BLEND.default;
}

export const RERANK_DEFAULTS = {
  timeoutMs: 8_000,
  /** A cross-encoder reads at most 512 tokens of a pair: the opening of a memory is what it sees anyway. */
  maxCharsPerPassage: 1_200,
} as const;

/** The first-stage score the attention gate and the blend read: the fused (RRF) score. */
export const firstStageScore = (c: ScoredCandidate): number => c.signals.rrf;

/** The product of the post-fusion multipliers that applied to a candidate (1 when none did). */
function dampingFactor(c: ScoredCandidate): number {
  const d = c.scores.dampening;
  return d ? (d.gravity ?? 1) * (d.hub ?? 1) * (d.resolution ?? 1) : 1;
}

function minMax(values: readonly number[]): number[] {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return values.map((v) => (hi - lo > 1e-12 ? (v - lo) / (hi - lo) : 1));
}

/**
 * Candidates with their blended relevance (score recomputed), in the order given; each carries
 * what went into its blend.
 */
export function blend(candidates: readonly ScoredCandidate[], rerankScores: readonly number[], weights: BlendWeights): ScoredCandidate[] {
  if (candidates.length !== rerankScores.length) throw new Error('blend: one reranker score per candidate');
  const first = minMax(candidates.map(firstStageScore));
  const second = minMax(rerankScores);
  const relevances = candidates.map((c) => c.scores.relevance);
  let lo = Math.min(...relevances);
  const hi = Math.max(...relevances);
  if (hi - lo < 1e-12) lo = 0;
  return candidates.map((c, i) => {
    const blended = weights.first * first[i]! + weights.rerank * second[i]!;
    const relevance = lo + blended * (hi - lo);
    return {
      ...c,
      // Post-fusion dampening (dampening.ts) multiplied the score; the blend keeps its factors.
      scores: { ...c.scores, relevance, score: relevance * c.scores.provenance * c.scores.recency * dampingFactor(c) },
      rerank: { score: rerankScores[i]!, blended, firstStage: first[i]! },
    };
  });
}

export type RerankSkipReason = 'disabled' | 'no-reranker' | 'no-candidates' | 'attention' | 'breaker-open' | 'timeout' | 'error';

export type RerankStatus =
  | { ran: true; rerankerId: string; pairs: number; ms: number; weights: BlendWeights; intentClass: string | null; moved: number }
  | {
      ran: false;
      reason: RerankSkipReason;
      message: string;
      /** The attention gate's rule, when it was the gate that skipped. */
      rule?: AttentionSkipRule;
      breaker?: BreakerStatus;
    };

export interface RerankOptions {
  reranker?: Reranker | null;
  /** Why there is no reranker, when one is chosen but not ready (still loading, failed to load). */
  unavailable?: string | null;
  enabled?: boolean;
  /** What the cross-encoder reads with each passage: the person's prompt. */
  query?: string;
  /** The intent class (router) that picks the blend; null: the default blend. */
  intentClass?: string | null;
  timeoutMs?: number;
  maxCharsPerPassage?: number;
  attention?: AttentionOptions;
  guard?: StageGuard;
  signal?: AbortSignal;
  clock?: () => number;
}

export interface RerankOutcome {
  candidates: ScoredCandidate[];
  status: RerankStatus;
  ms: number;
}

const skip = (candidates: readonly ScoredCandidate[], status: RerankStatus): RerankOutcome => ({
  candidates: [...candidates],
  status,
  ms: 0,
});

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}

/** The scores, or a rejection after `timeoutMs` (the reranker is asked to stop). */
async function scoreWithin(
  reranker: Reranker,
  query: string,
  passages: string[],
  timeoutMs: number,
  outer?: AbortSignal,
): Promise<number[]> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  outer?.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no scores within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const scores = await Promise.race([reranker.score(query, passages, { signal: controller.signal }), timeout]);
    if (scores.length !== passages.length || scores.some((s) => !Number.isFinite(s))) {
      throw new Error(`the reranker returned ${scores.length} scores for ${passages.length} passages`);
    }
    return scores;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}

/** Positions that changed between two orders of the same candidates. */
function movedCount(before: readonly ScoredCandidate[], after: readonly ScoredCandidate[]): number {
  return before.filter((c, i) => after[i]?.record.id !== c.record.id).length;
}

const byScore = (a: ScoredCandidate, b: ScoredCandidate) => b.scores.score - a.scores.score;

export async function rerankStage(candidates: readonly ScoredCandidate[], options: RerankOptions = {}): Promise<RerankOutcome> {
  if (options.enabled === false) return skip(candidates, { ran: false, reason: 'disabled', message: 'the reranker is switched off' });
  if (!options.reranker) {
    return skip(candidates, { ran: false, reason: 'no-reranker', message: options.unavailable ?? 'no reranker is chosen' });
  }
  if (candidates.length === 0) return skip(candidates, { ran: false, reason: 'no-candidates', message: 'nothing to rerank' });
  const attention = attentionGate(candidates.map(firstStageScore), options.attention);
  if (!attention.rerank) {
    return skip(candidates, { ran: false, reason: 'attention', rule: attention.rule, message: `attention gate: ${attention.message}` });
  }
  const reranker = options.reranker;
  const clock = options.clock ?? (() => Date.now());
  const timeoutMs = options.timeoutMs ?? RERANK_DEFAULTS.timeoutMs;
  const max = options.maxCharsPerPassage ?? RERANK_DEFAULTS.maxCharsPerPassage;
  const passages = candidates.map((c) => clip(c.record.text, max));
  const started = clock();
  let failure: string | null = null;
  let timedOut = false;
  const guarded = await guardCall(
    options.guard,
    async () => {
      try {
        return await scoreWithin(reranker, options.query ?? '', passages, timeoutMs, options.signal);
      } catch (thrown) {
        timedOut = !options.signal?.aborted && /within \d+ ms/u.test(String((thrown as Error)?.message));
        failure = toVaultError(thrown, 'embed/failed').message;
        return null;
      }
    },
    (scores) => ({
      outcome: scores ? 'ok' : options.signal?.aborted ? 'cancelled' : 'failed',
      reason: scores ? null : failure,
      ms: clock() - started,
    }),
    clock,
  );
  if (!guarded.admitted) {
    return skip(candidates, { ran: false, reason: 'breaker-open', message: guarded.message, breaker: guarded.status });
  }
  const scores = guarded.value;
  if (!scores) {
    const status: RerankStatus = {
      ran: false,
      reason: timedOut ? 'timeout' : 'error',
      message: `the reranker did not run (${failure ?? 'failed'}): first-stage order kept`,
    };
    if (options.guard) status.breaker = options.guard.breaker.status();
    return { ...skip(candidates, status), ms: clock() - started };
  }
  const weights = blendWeights(options.intentClass);
  const blended = blend(candidates, scores, weights);
  const ms = clock() - started;
  const before = [...candidates].sort(byScore);
  const after = [...blended].sort(byScore);
  return {
    candidates: blended,
    ms,
    status: {
      ran: true,
      rerankerId: reranker.id,
      pairs: passages.length,
      ms,
      weights,
      intentClass: options.intentClass ?? null,
      moved: movedCount(before, after),
    },
  };
}
