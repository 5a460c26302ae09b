/**
 * The read path in one call: intent + decomposition -> hybrid retrieval -> scoring -> funnel ->
 * access write-back list. Pure apart from its dependencies (searchers, store, embedder, LLM, clock),
 * which the index worker supplies. Bad input and failing dependencies come back as a Result.
 */
import type { Llm } from '../api/llm';
import { err, ok, toVaultError, vaultError, type Result } from '../errors';
import { decompose } from './decompose';
import { runFunnel, DEFAULT_FUNNEL_WIDTH, MAX_WIDTH, type FunnelOptions } from './funnel';
import { deriveIntent } from './intent';
import { retrieve, DEFAULT_PER_LIST_K, type RetrieveDeps, type RetrievalLists, type SearcherWeights } from './retrieve';
import { accessWrites, scoreAll } from './scoring';
import { floorFor } from './similarity-floor';
import type { TokenCounter } from '../text/token-count';
import type { RecallResult } from './types';

export interface RecallDeps extends RetrieveDeps {
  /** The LLM for decomposition, intent and the fit-gate; null or absent: every stage falls back. */
  llm?: Llm | null;
  /** Wall-clock time (ms since epoch) for recency and access write-back. */
  now: number;
  /** Monotonic clock in ms for timings (performance.now in the app). */
  clock?: () => number;
}

export interface RecallInput {
  prompt: string;
  /** The intent the person saw and maybe edited; derived when absent. */
  intent?: string | null;
}

export interface RecallOptions {
  /** The funnel switch (on by default). */
  funnel?: boolean;
  /** Minimum funnel width (it grows for short items, see funnel.ts). */
  width?: number;
  minWidthTokens?: number;
  maxWidth?: number;
  perListK?: number;
  /** Fused candidates read from the store; defaults to the widest funnel plus 10 near misses to show. */
  limit?: number;
  /** Overrides the calibrated similarity floor. */
  floor?: number | null;
  tokenCap?: number;
  gateTimeoutMs?: number;
  /** Ask the LLM for variants / intent (when one is given). Default true. */
  llmDecompose?: boolean;
  llmIntent?: boolean;
  gate?: boolean;
  lists?: RetrievalLists;
  /** Fusion weights of the BM25 and vector lists; default by embedder kind (retrieve.ts). */
  weights?: SearcherWeights;
  countTokens?: TokenCounter;
  /**
   * Recency decay of the conversational tiers (default true). Off for an archive read as a whole,
   * where every session is asked about alike (the LoCoMo evaluation); see scoring.ts.
   */
  recency?: boolean;
  signal?: AbortSignal;
}

const cancelled = () => vaultError('recall/cancelled', 'A newer query replaced this one.');

function funnelOptions(
  deps: RecallDeps,
  options: RecallOptions,
  common: { signal?: AbortSignal; clock: () => number },
): FunnelOptions & { maxWidth: number } {
  const width = options.width ?? DEFAULT_FUNNEL_WIDTH;
  return {
    enabled: options.funnel !== false,
    width,
    maxWidth: Math.max(width, options.maxWidth ?? MAX_WIDTH),
    ...(options.minWidthTokens !== undefined ? { minWidthTokens: options.minWidthTokens } : {}),
    floor: floorFor(deps.embedder, options.floor),
    gate: {
      enabled: options.gate !== false,
      llm: deps.llm ?? null,
      ...(options.gateTimeoutMs ? { timeoutMs: options.gateTimeoutMs } : {}),
      ...common,
    },
    ...(options.tokenCap ? { tokenCap: options.tokenCap } : {}),
    ...(options.countTokens ? { countTokens: options.countTokens } : {}),
  };
}

export async function recall(input: RecallInput, deps: RecallDeps, options: RecallOptions = {}): Promise<Result<RecallResult>> {
  const prompt = input.prompt.trim();
  if (prompt.length === 0) return err(vaultError('input/invalid', 'Type what you want to recall.'));
  const clock = deps.clock ?? (() => Date.now());
  const t0 = clock();
  const llm = deps.llm ?? null;
  const signal = options.signal;
  const common = { ...(signal ? { signal } : {}), clock };
  const funnel = funnelOptions(deps, options, common);
  try {
    const [intent, decomposition] = await Promise.all([
      deriveIntent(prompt, { given: input.intent ?? null, llm: options.llmIntent === false ? null : llm, ...common }),
      decompose(prompt, { llm: options.llmDecompose === false ? null : llm, ...common }),
    ]);
    const t1 = clock();
    if (signal?.aborted) return err(cancelled());
    const retrieval = await retrieve(decomposition.variants, deps, {
      perListK: Math.max(options.perListK ?? DEFAULT_PER_LIST_K, funnel.maxWidth),
      limit: options.limit ?? funnel.maxWidth + 10,
      lists: options.lists ?? 'hybrid',
      ...(options.weights ? { weights: options.weights } : {}),
      ...(signal ? { signal } : {}),
    });
    const t2 = clock();
    if (signal?.aborted) return err(cancelled());
    const { gateMs, ...outcome } = await runFunnel(
      scoreAll(retrieval.candidates, deps.now, { recency: options.recency !== false }),
      intent.text,
      funnel,
    );
    if (signal?.aborted) return err(cancelled());
    return ok({
      prompt,
      intent,
      decomposition,
      funnel: funnel.enabled,
      ...outcome,
      accessWrites: accessWrites(outcome.items, deps.now),
      timings: { decomposeMs: t1 - t0, retrieveMs: t2 - t1, gateMs, totalMs: clock() - t0 },
    });
  } catch (thrown) {
    if (signal?.aborted) return err(cancelled());
    return err(toVaultError(thrown, 'recall/failed'));
  }
}
