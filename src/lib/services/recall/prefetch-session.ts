/**
 * The recall service's side of prefetch: which requests may be answered from the cache (the
 * app's defaults only: no drops, no edited intent or chosen intent class, no settings under test), a hit served and
 * marked in the trace, the session's recent prompts, and the guesses scheduled after each recall.
 */
import { predictNext, promptKey } from '../../core/recall/predict-next';
import type { RecallOptions } from '../../core/recall/recall';
import { accessWrites } from '../../core/recall/scoring';
import type { RecallResult } from '../../core/recall/types';
import { heldIds, PREFETCH_DEFAULTS, PrefetchCache, Prefetcher, type PrefetchEntry } from './prefetch';

export interface PrefetchOptions {
  ttlMs?: number;
  /** K: results held at most. */
  maxEntries?: number;
  /** Guesses computed after each recall. */
  perRecall?: number;
  /** Why background work must wait now (an import or indexing runs), or null. */
  admission?: () => Promise<string | null>;
  yieldToOthers?: () => Promise<void>;
}

/** Options that change what the core read path returns: a request using any of them is never served from the cache. */
const ALLOWED = new Set(['signal', 'funnel']);

const RECENT = 5;

export class PrefetchSession {
  readonly prefetcher: Prefetcher;
  private readonly recent: string[] = [];

  constructor(
    private readonly compute: (prompt: string, signal: AbortSignal) => Promise<{ result: RecallResult; ms: number } | null>,
    private readonly now: () => number,
    private readonly options: PrefetchOptions = {},
  ) {
    const cache = new PrefetchCache({
      now,
      ttlMs: options.ttlMs ?? PREFETCH_DEFAULTS.ttlMs,
      maxEntries: options.maxEntries ?? PREFETCH_DEFAULTS.maxEntries,
    });
    this.prefetcher = new Prefetcher({
      cache,
      compute,
      admission: options.admission ?? (() => Promise.resolve(null)),
      now,
      ...(options.yieldToOthers ? { yieldToOthers: options.yieldToOthers } : {}),
    });
  }

  /** The cache key of a request the cache may answer, or null. */
  keyOf(
    query: { prompt: string; intent?: string | null; intentClass?: string | null; dropped?: readonly string[] },
    options: RecallOptions,
  ): string | null {
    // A chosen intent class changes the weights and the reranker's blend: the guess was computed without it.
    if (query.intent?.trim() || query.intentClass || (query.dropped?.length ?? 0) > 0) return null;
    for (const [name, value] of Object.entries(options)) if (value !== undefined && !ALLOWED.has(name)) return null;
    if (options.funnel === false) return null;
    const key = promptKey(query.prompt);
    return key.length > 0 ? key : null;
  }

  /** A fresh entry for the key (counted as a hit), or null (counted as a miss). */
  lookup(key: string): PrefetchEntry | null {
    const entry = this.prefetcher.cache.get(key);
    if (entry) this.prefetcher.recordHit(entry);
    else this.prefetcher.recordMiss();
    return entry;
  }

  /** The cached result as this request's: its prompt, its reads, and the mark in the trace. */
  serve(entry: PrefetchEntry, prompt: string, now: number): RecallResult {
    return {
      ...entry.result,
      prompt: prompt.trim(),
      accessWrites: accessWrites(entry.result.items, now),
      prefetch: {
        hit: true,
        computedFor: entry.prompt,
        source: entry.source,
        reason: entry.reason,
        ageMs: Math.max(0, this.now() - entry.computedAt),
        savedMs: entry.computeMs,
      },
    };
  }

  /** A prompt the person asked: cached (a repeat is instant), remembered, and the next guesses scheduled. */
  asked(key: string | null, prompt: string, result: RecallResult, ms: number, computedAt: number): void {
    if (key && !result.prefetch) {
      this.prefetcher.cache.put({
        key,
        prompt,
        source: 'asked',
        reason: 'asked in this session',
        result,
        ids: heldIds(result),
        computedAt,
        computeMs: ms,
      });
    }
    const guesses = predictNext(
      { prompt, recent: this.recent, shown: result.items.map((c) => c.record.text) },
      this.options.perRecall ?? PREFETCH_DEFAULTS.perRecall,
    );
    this.recent.push(prompt);
    if (this.recent.length > RECENT) this.recent.shift();
    this.prefetcher.schedule(guesses);
  }
}
