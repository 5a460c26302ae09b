/**
 * The read path, once: the core pipeline (`recall`: intent, decomposition, hybrid retrieval,
 * scoring, funnel) over the index's sources, the person's pins and drops, the package assembled
 * within the target model's budget and sanitized for reading, and the reads written back. The
 * Recall screen (through the index worker), `engram recall`, `eval locomo` and the agent tools all
 * call `answer`; the worker's `recall` adds "the newest request wins".
 */
import type { Llm } from '../../core/api/llm';
import type { StageBreakers } from '../../core/breaker/circuit-breaker';
import type { ExcludedItem, RecallRequest, RecallResponse } from '../../core/api/recall-api';
import { err, ok, toVaultError, VaultFailure, vaultError, type Result } from '../../core/errors';
import { assemblePackage, type AssembledPackage, type FlaggedLinePolicy } from '../../core/recall/budget';
import { DEFAULT_TARGET_ID, resolveTarget } from '../../core/recall/model-windows';
import { loadTokenCounter } from '../../core/text/token-count';
import type { PackageFormat } from '../../core/recall/package-format';
import type { CandidateRecord, CandidateStore, ScopedSource, StructureSearcher } from '../../core/recall/ports';
import { recall, type RecallOptions } from '../../core/recall/recall';
import type { Reranker } from '../../core/recall/rerank';
import type { RecallResult } from '../../core/recall/types';
import type { Vault } from '../../store/vault';
import { INTENT_CLASSES, INTENT_PROFILES, type IntentClass, type IntentSample } from '../../core/recall/intent-class';
import { IntentsRepo } from '../../store/intents-repo';
import { AccessWriteBack } from './access-write-back';
import { readSanitizer } from './read-sanitizer';
import { PrefetchSession, type PrefetchOptions } from './prefetch-session';
import { applyPins } from './recall-pins';
import { dropExpired } from './recall-validity';
import type { RecallSources } from './recall-sources';

const isIntentClass = (value: string): value is IntentClass => (INTENT_CLASSES as readonly string[]).includes(value);

export const MAX_PROMPT_CHARS = 20_000;

export interface RecallServiceOptions {
  /** The language model for decomposition, intent and the fit-gate (null: model-free fallbacks). */
  llm?: () => Llm | null;
  /** The cross-encoder of the second stage (null: the first-stage order stands). */
  reranker?: () => Reranker | null;
  /** Why there is none although one was chosen (loading, failed), for the trace. */
  rerankerUnavailable?: () => string | null;
  /** One circuit breaker per model stage, shared with extraction (the index worker's). */
  breakers?: StageBreakers;
  /** Wall clock for recency and write-back (default Date.now). */
  now?: () => number;
  /** Monotonic clock for timings (default performance.now). */
  clock?: () => number;
  gateTimeoutMs?: number;
  /** Where a failed access write-back is reported (it never fails a recall). */
  onWriteBackError?: (error: unknown) => void;
  /** Predictive prefetch of the likely next prompts (off unless given; prefetch.ts). */
  prefetch?: PrefetchOptions;
}

export interface RecallQuery {
  prompt: string;
  /** The intent the person saw and maybe edited; derived when absent. */
  intent?: string | null;
  /** The intent class the person chose; classified when absent. */
  intentClass?: IntentClass | null;
  /** Always kept, as Core, even when the funnel would drop them or retrieval did not find them. */
  pinned?: readonly string[];
  /** Excluded by the person: never retrieved, never packaged. */
  dropped?: readonly string[];
}

export interface PackageOptions {
  /** A model preset id (model-windows.ts) or a custom window in tokens. Default gpt-4o. */
  target?: string | number;
  fraction?: number;
  format?: PackageFormat;
  /** Flagged lines are dropped with a marker naming their source (default) or kept quoted. */
  flaggedLines?: FlaggedLinePolicy;
}

export interface AnswerOptions extends RecallOptions {
  package?: PackageOptions;
  /** Write the reads back (default true; the evaluation reads an archive without touching it). */
  writeBack?: boolean;
  /** Wall-clock "now" for this query (default the service's clock). */
  now?: number;
}

export interface RecallAnswer {
  result: RecallResult;
  /** The context package of the kept items (empty text when the vault holds nothing on this). */
  package: AssembledPackage;
  excluded: ExcludedItem[];
  /** The serving embedder the vector lists and the similarity floor came from. */
  embedderId: string;
  documents: number;
}

export class RecallService {
  readonly writeBack: AccessWriteBack;
  /** The slow thinker, when prefetch is on. */
  readonly prefetch: PrefetchSession | null;
  private readonly intents: IntentsRepo;
  private latest = 0;
  private controller: AbortController | null = null;
  /** The model stages the prefetch cache's results were computed with (a change empties it). */
  private prefetchModels: readonly unknown[] | null = null;

  constructor(
    private readonly sources: RecallSources,
    vault: Pick<Vault, 'reads' | 'db'>,
    private readonly options: RecallServiceOptions = {},
  ) {
    this.writeBack = new AccessWriteBack(vault, options.onWriteBackError);
    this.intents = new IntentsRepo(vault.db);
    const wall = options.now ?? Date.now;
    this.prefetch = options.prefetch
      ? new PrefetchSession((prompt, signal) => this.background(prompt, signal), wall, options.prefetch)
      : null;
    if (this.prefetch) sources.onChange?.((ids) => this.prefetch?.prefetcher.changed(ids));
  }

  /** A guess computed in the background: the core read path as a plain request would run it. */
  private async background(prompt: string, signal: AbortSignal): Promise<{ result: RecallResult; ms: number } | null> {
    const clock = this.options.clock ?? (() => performance.now());
    const started = clock();
    const models = this.models();
    const outcome = await this.core({ prompt }, { signal }, (this.options.now ?? Date.now)(), this.reader({ prompt }, new Map()));
    // Computed with a model that is gone (or without one that came): not kept.
    if (!sameModels(models, this.models())) return null;
    return outcome.ok && !signal.aborted ? { result: outcome.value, ms: clock() - started } : null;
  }

  /** The model stages a recall runs with now (the language model, the reranker). */
  private models(): readonly unknown[] {
    return [this.options.llm?.() ?? null, this.options.reranker?.() ?? null];
  }

  /** A cached result is only as good as the models that computed it: when they change, the cache empties. */
  private prefetchModelsNow(prefetch: PrefetchSession): readonly unknown[] {
    const models = this.models();
    if (this.prefetchModels !== null && !sameModels(models, this.prefetchModels)) prefetch.prefetcher.changed(null);
    this.prefetchModels = models;
    return models;
  }

  /** The core pipeline over the index's sources with this service's models and breakers. */
  private async core(
    query: RecallQuery,
    recallOptions: RecallOptions,
    now: number,
    { store, structure, scoped }: { store: CandidateStore; structure: StructureSearcher | null; scoped: ScopedSource | null },
  ): Promise<Result<RecallResult>> {
    await loadTokenCounter();
    const embedder = await this.sources.queryEmbedder();
    const intentHistory = async (): Promise<IntentSample[]> =>
      (await this.intents.recent(now)).flatMap((r) => (isIntentClass(r.intent) ? [{ intent: r.intent, at: r.at }] : []));
    return recall(
      { prompt: query.prompt, intent: query.intent ?? null, intentClass: query.intentClass ?? null },
      {
        lexical: this.sources.lexical,
        vector: this.sources.vector,
        embedder,
        store,
        ...(this.sources.graph ? { graph: this.sources.graph } : {}),
        ...(this.sources.triples ? { triples: this.sources.triples } : {}),
        ...(this.sources.hints ? { hints: this.sources.hints } : {}),
        structure,
        scoped,
        intentHistory,
        llm: this.options.llm?.() ?? null,
        reranker: this.options.reranker?.() ?? null,
        rerankerUnavailable: this.options.rerankerUnavailable?.() ?? null,
        now,
        clock: this.options.clock ?? (() => performance.now()),
        ...(this.options.breakers ? { breakers: this.options.breakers } : {}),
        ...(this.options.now ? { wallClock: this.options.now } : {}),
      },
      { ...(this.options.gateTimeoutMs ? { gateTimeoutMs: this.options.gateTimeoutMs } : {}), ...recallOptions },
    );
  }

  /** The person's drops are never read; their pins come back marked (chunks, notes and structural units alike). */
  private reader(
    query: RecallQuery,
    excluded: Map<string, CandidateRecord>,
  ): { store: CandidateStore; structure: StructureSearcher | null; scoped: ScopedSource | null } {
    const dropped = new Set(query.dropped ?? []);
    const pinned = new Set(query.pinned ?? []);
    const keep = (record: CandidateRecord): CandidateRecord | null => {
      if (!dropped.has(record.id)) return pinned.has(record.id) ? { ...record, pinned: true } : record;
      excluded.set(record.id, record);
      return null;
    };
    const structure = this.sources.structure;
    const scoped = this.sources.scoped;
    return {
      store: { get: async (ids) => (await this.sources.store.get(ids)).flatMap((r) => keep(r) ?? []) },
      structure: structure
        ? {
            search: async (prompt, k) =>
              (await structure.search(prompt, k)).flatMap((hit) => {
                const record = keep(hit.record);
                return record ? [{ ...hit, record }] : [];
              }),
          }
        : null,
      scoped: scoped
        ? {
            notes: async (categories, limit) => (await scoped.notes(categories, limit)).flatMap((r) => keep(r) ?? []),
            sessions: async (limit) => (await scoped.sessions(limit)).flatMap((r) => keep(r) ?? []),
          }
        : null,
    };
  }

  /** The whole read path and its package; bad input and failures come back as a Result. */
  async answer(query: RecallQuery, options: AnswerOptions = {}): Promise<Result<RecallAnswer>> {
    const { package: pkg, writeBack = true, now: at, ...recallOptions } = options;
    const target = resolveTarget(pkg?.target ?? DEFAULT_TARGET_ID);
    if (!target) return err(vaultError('input/invalid', `Unknown target model "${String(pkg?.target)}".`));
    if (query.prompt.length > MAX_PROMPT_CHARS) {
      return err(vaultError('input/invalid', `The prompt is longer than ${MAX_PROMPT_CHARS} characters; shorten it.`));
    }
    // The funnel's width and the package's budget count tokens (the counter loads on first use).
    try {
      await loadTokenCounter();
    } catch (thrown) {
      return err(toVaultError(thrown, 'recall/failed'));
    }
    const excluded = new Map<string, CandidateRecord>();
    const embedder = await this.sources.queryEmbedder();
    const reader = this.reader(query, excluded);
    const store = reader.store;
    const now = at ?? (this.options.now ?? Date.now)();
    const prefetch = this.prefetch;
    const models = prefetch ? this.prefetchModelsNow(prefetch) : null;
    const key = prefetch?.keyOf(query, recallOptions) ?? null;
    prefetch?.prefetcher.foregroundStarted();
    let outcome: Result<RecallResult>;
    try {
      const hit = key && query.prompt.trim() ? prefetch!.lookup(key) : null;
      const clock = this.options.clock ?? (() => performance.now());
      const started = clock();
      const computedAt = (this.options.now ?? Date.now)();
      outcome = hit ? ok(prefetch!.serve(hit, query.prompt, now)) : await this.core(query, recallOptions, now, reader);
      if (outcome.ok && prefetch && !recallOptions.signal?.aborted)
        prefetch.asked(sameModels(models!, this.models()) ? key : null, query.prompt.trim(), outcome.value, clock() - started, computedAt);
    } finally {
      prefetch?.prefetcher.foregroundEnded();
    }
    if (!outcome.ok) return outcome;
    if (recallOptions.signal?.aborted) return err(vaultError('recall/cancelled', 'A newer query replaced this one.'));
    // A cached result is filtered by validity, packaged and sanitized again here, like any other.
    const result = await applyPins(dropExpired(outcome.value, now), query.pinned ?? [], store, now);
    const assembled = assemblePackage(result.items, {
      window: target.window,
      ...(pkg?.fraction !== undefined ? { fraction: pkg.fraction } : {}),
      format: pkg?.format ?? 'markdown',
      flaggedLines: pkg?.flaggedLines ?? 'drop',
      sanitize: readSanitizer,
      ...(result.intentClass ? { coreCount: INTENT_PROFILES[result.intentClass.intent].coreCount } : {}),
    });
    if (writeBack) {
      this.writeBack.push(result.accessWrites);
      if (result.intentClass) {
        void this.intents
          .record([{ intent: result.intentClass.intent, at: now }])
          .catch(this.options.onWriteBackError ?? (() => undefined));
      }
    }
    return ok({
      result,
      package: assembled,
      excluded: await this.excludedItems(query.dropped ?? [], excluded),
      embedderId: embedder.id,
      documents: this.sources.size(),
    });
  }

  /** The Recall screen's request: the newest wins (an older one is aborted and answers `stale`). */
  async recall(request: RecallRequest): Promise<RecallResponse> {
    const stale = { requestId: request.requestId, stale: true } as const;
    if (request.requestId < this.latest) return stale;
    this.latest = request.requestId;
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    const outcome = await this.answer(
      {
        prompt: request.prompt,
        intent: request.intent,
        intentClass: request.intentClass ?? null,
        pinned: request.pinned,
        dropped: request.dropped,
      },
      {
        funnel: request.funnel,
        hints: request.hints === true,
        signal: controller.signal,
        package: { target: request.target, format: request.format, flaggedLines: request.flaggedLines },
      },
    );
    if (controller.signal.aborted || request.requestId !== this.latest) return stale;
    if (!outcome.ok) {
      if (outcome.error.code === 'recall/cancelled') return stale;
      throw new VaultFailure(outcome.error);
    }
    return { requestId: request.requestId, stale: false, ...outcome.value };
  }

  /** The person's drops with their records (read when this query did not retrieve them). */
  private async excludedItems(ids: readonly string[], seen: Map<string, CandidateRecord>): Promise<ExcludedItem[]> {
    const missing = ids.filter((id) => !seen.has(id));
    const read = missing.length ? await this.sources.store.get(missing) : [];
    for (const record of read) seen.set(record.id, record);
    return ids.map((id) => ({ id, record: seen.get(id) ?? null }));
  }
}

function sameModels(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((m, i) => m === b[i]);
}
