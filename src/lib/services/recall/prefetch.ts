/**
 * Predictive prefetch (the slow thinker): after each recall the likely next prompts
 * (core/recall/predict-next.ts) are computed in the background, one at a time, into a small cache.
 * Its worth is where a model stage makes a recall slow (the fit-gate, decomposition, the reranker):
 * a hit answers at once. The rules:
 *
 * - admission: never while a foreground recall runs (a foreground request aborts the background
 *   one, which is dropped, not resumed) nor while an import or indexing runs (`admission` says why);
 *   at most `perRecall` guesses per recall, newer guesses replace older ones in the queue;
 * - the cache holds at most `maxEntries` (K) results for `ttlMs` (300 s); a write to any record an
 *   entry holds removes the entry, and a new document empties the cache (it could answer any of them);
 * - a hit's package is assembled and sanitized again at read time (recall-service.ts) and the
 *   result is marked in the trace (`result.prefetch`).
 */
import type { PredictedPrompt, PredictionSource } from '../../core/recall/predict-next';
import type { RecallResult } from '../../core/recall/types';

export const PREFETCH_DEFAULTS = { ttlMs: 300_000, maxEntries: 8, perRecall: 4 } as const;

export interface PrefetchEntry {
  key: string;
  /** The prompt it was computed for (a guess, or a prompt the person asked). */
  prompt: string;
  source: PredictionSource | 'asked';
  reason: string;
  result: RecallResult;
  /** Every record the result holds (kept and dropped): a write to one of them removes the entry. */
  ids: ReadonlySet<string>;
  /** When it was computed (wall clock, ms). */
  computedAt: number;
  /** How long computing it took (what a hit saves). */
  computeMs: number;
}

export function heldIds(result: RecallResult): Set<string> {
  return new Set([...result.items.map((c) => c.record.id), ...result.dropped.map((d) => d.candidate.record.id)]);
}

export class PrefetchCache {
  private readonly entries = new Map<string, PrefetchEntry>();
  readonly ttlMs: number;
  readonly maxEntries: number;

  constructor(private readonly options: { now: () => number; ttlMs?: number; maxEntries?: number }) {
    this.ttlMs = options.ttlMs ?? PREFETCH_DEFAULTS.ttlMs;
    this.maxEntries = Math.max(1, options.maxEntries ?? PREFETCH_DEFAULTS.maxEntries);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The fresh entry for a key; an expired one is removed. */
  get(key: string): PrefetchEntry | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (this.options.now() - entry.computedAt >= this.ttlMs) {
      this.entries.delete(key);
      return null;
    }
    return entry;
  }

  has(key: string): boolean {
    return this.get(key) !== null;
  }

  /** Stores an entry (replacing one with the same key); the oldest go when more than K are held. */
  put(entry: PrefetchEntry): void {
    this.entries.delete(entry.key);
    this.entries.set(entry.key, entry);
    const byAge = [...this.entries.values()].sort((a, b) => a.computedAt - b.computedAt);
    while (this.entries.size > this.maxEntries) this.entries.delete(byAge.shift()!.key);
  }

  /** Removes every entry holding one of `ids`; returns how many went. */
  invalidate(ids: Iterable<string>): number {
    const changed = new Set(ids);
    let removed = 0;
    for (const [key, entry] of this.entries) {
      if ([...changed].some((id) => entry.ids.has(id))) {
        this.entries.delete(key);
        removed += 1;
      }
    }
    return removed;
  }

  clear(): number {
    const n = this.entries.size;
    this.entries.clear();
    return n;
  }
}

export interface PrefetchStats {
  predicted: number;
  computed: number;
  /** Guesses dropped because their key was cached already. */
  alreadyCached: number;
  /** Background computations aborted by a foreground recall. */
  aborted: number;
  /** Times the queue was dropped because admission refused (by reason). */
  refused: Record<string, number>;
  /** Results discarded because the vault changed while they were computed. */
  discarded: number;
  invalidated: number;
  hits: number;
  misses: number;
  /** Sum of `computeMs` of the entries that answered a hit. */
  savedMs: number;
}

export interface PrefetcherDeps {
  cache: PrefetchCache;
  /** Computes a guess (the core read path, no package); null when it failed or was cancelled. */
  compute(prompt: string, signal: AbortSignal): Promise<{ result: RecallResult; ms: number } | null>;
  /** Why background work must wait now (an import or indexing runs), or null. */
  admission(): Promise<string | null>;
  now: () => number;
  /** Lets other work run between two background computations (default: a macrotask). */
  yieldToOthers?: () => Promise<void>;
}

export class Prefetcher {
  readonly stats: PrefetchStats = {
    predicted: 0,
    computed: 0,
    alreadyCached: 0,
    aborted: 0,
    refused: {},
    discarded: 0,
    invalidated: 0,
    hits: 0,
    misses: 0,
    savedMs: 0,
  };
  private queue: PredictedPrompt[] = [];
  private running: AbortController | null = null;
  private foreground = 0;
  private generation = 0;
  private pumping: Promise<void> | null = null;

  constructor(private readonly deps: PrefetcherDeps) {}

  get cache(): PrefetchCache {
    return this.deps.cache;
  }

  /** New guesses replace the queue (the newest recall knows best what comes next). */
  schedule(predictions: readonly PredictedPrompt[]): void {
    this.stats.predicted += predictions.length;
    this.queue = predictions.filter((p) => {
      const cached = this.deps.cache.has(p.key);
      if (cached) this.stats.alreadyCached += 1;
      return !cached;
    });
    this.kick();
  }

  /** A foreground recall starts: the background one stops at once and nothing starts until it ends. */
  foregroundStarted(): void {
    this.foreground += 1;
    if (this.running) {
      this.running.abort();
      this.stats.aborted += 1;
    }
  }

  foregroundEnded(): void {
    this.foreground = Math.max(0, this.foreground - 1);
    this.kick();
  }

  /** The vault changed: entries holding these records go (null: every entry), results in flight are dropped. */
  changed(ids: readonly string[] | null): void {
    this.generation += 1;
    this.stats.invalidated += ids === null ? this.deps.cache.clear() : this.deps.cache.invalidate(ids);
  }

  recordHit(entry: PrefetchEntry): void {
    this.stats.hits += 1;
    this.stats.savedMs += entry.computeMs;
  }

  recordMiss(): void {
    this.stats.misses += 1;
  }

  /** Resolves when nothing is queued or running (the replay and the tests wait for it). */
  async idle(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  private kick(): void {
    if (this.pumping || this.foreground > 0 || this.queue.length === 0) return;
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
      if (this.foreground === 0 && this.queue.length > 0) this.kick();
    });
  }

  private async pump(): Promise<void> {
    while (this.queue.length > 0 && this.foreground === 0) {
      await (this.deps.yieldToOthers ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 0))))();
      if (this.foreground > 0) return;
      const refusal = await this.deps.admission();
      if (refusal) {
        this.stats.refused[refusal] = (this.stats.refused[refusal] ?? 0) + 1;
        this.queue = [];
        return;
      }
      const next = this.queue.shift()!;
      if (this.deps.cache.has(next.key)) {
        this.stats.alreadyCached += 1;
        continue;
      }
      const controller = new AbortController();
      this.running = controller;
      const generation = this.generation;
      const started = this.deps.now();
      const outcome = await this.deps.compute(next.prompt, controller.signal).catch(() => null);
      this.running = null;
      if (controller.signal.aborted || !outcome) continue;
      if (generation !== this.generation) {
        this.stats.discarded += 1;
        continue;
      }
      this.stats.computed += 1;
      this.deps.cache.put({
        key: next.key,
        prompt: next.prompt,
        source: next.source,
        reason: next.reason,
        result: outcome.result,
        ids: heldIds(outcome.result),
        computedAt: started,
        computeMs: outcome.ms,
      });
    }
  }
}
