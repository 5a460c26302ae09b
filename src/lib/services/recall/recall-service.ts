/**
 * Recall served by the index worker: the core read path (`recall`) over this worker's own BM25,
 * vector index and candidate store, then budget assembly with the read-time sanitizer. The newest
 * request wins (an older one is aborted and answers `stale`); the person's pins are always kept as
 * Core and their drops are never retrieved; reads of notes are written back in the background.
 */
import type { Llm } from '../../core/api/llm';
import type { ExcludedItem, RecallLlmPort, RecallRequest, RecallResponse } from '../../core/api/recall-api';
import { VaultFailure, vaultError } from '../../core/errors';
import { assemblePackage } from '../../core/recall/budget';
import { resolveTarget } from '../../core/recall/model-windows';
import type { CandidateRecord, CandidateStore } from '../../core/recall/ports';
import { recall } from '../../core/recall/recall';
import type { RetrieveDeps } from '../../core/recall/retrieve';
import type { RecallResult } from '../../core/recall/types';
import { readSanitizer } from './read-sanitizer';
import { AccessWriteBack } from './access-write-back';
import type { IndexService } from '../index/index-service';
import { applyPins } from './recall-pins';

export interface RecallServiceOptions {
  /** Wall clock for recency and write-back (default Date.now). */
  now?: () => number;
  /** Monotonic clock for timings (default performance.now). */
  clock?: () => number;
  gateTimeoutMs?: number;
  /** Where a failed access write-back is reported (it never fails a recall). */
  onWriteBackError?: (error: unknown) => void;
}

const MAX_PROMPT_CHARS = 20_000;

let callSeq = 0;

/**
 * The page's LLM proxy as the core's `Llm`: id and kind read once. The abort signal stays on this
 * side: when it fires (a newer query, the gate's deadline) this side stops waiting at once and asks
 * the page to abort its call by id.
 */
export async function adaptLlm(port: RecallLlmPort | null | undefined): Promise<Llm | null> {
  if (!port) return null;
  const [id, kind] = await Promise.all([Promise.resolve(port.id), Promise.resolve(port.kind)]);
  const known = kind === 'webllm' || kind === 'openai-compatible' || kind === 'fake' ? kind : 'fake';
  return {
    id: String(id),
    kind: known,
    complete: (messages, { signal, ...options }) => {
      const callId = ++callSeq;
      const call = port.complete([...messages], options, callId);
      if (!signal) return call;
      return new Promise<string>((resolve, reject) => {
        const onAbort = () => {
          reject(new VaultFailure(vaultError('llm/cancelled', 'The model call was cancelled.')));
          if (port.cancel) void Promise.resolve(port.cancel(callId)).catch(() => undefined);
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        void call.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
  };
}

export class RecallService {
  readonly writeBack: AccessWriteBack;
  private latest = 0;
  private controller: AbortController | null = null;

  constructor(
    readonly index: IndexService,
    private readonly options: RecallServiceOptions = {},
  ) {
    this.writeBack = new AccessWriteBack(index.state.vault, options.onWriteBackError);
  }

  private async deps(request: RecallRequest, excluded: Map<string, CandidateRecord>): Promise<RetrieveDeps> {
    const { state } = this.index;
    const embedder = await state.embedderFor(state.servingChoice);
    const dropped = new Set(request.dropped);
    const pinned = new Set(request.pinned);
    const store: CandidateStore = {
      get: async (ids) => {
        const records = await this.index.candidates(ids);
        const out: CandidateRecord[] = [];
        for (const record of records) {
          if (dropped.has(record.id)) excluded.set(record.id, record);
          else out.push(pinned.has(record.id) ? { ...record, pinned: true } : record);
        }
        return out;
      },
    };
    return {
      lexical: { search: (query, k) => this.index.lexicalSearch(query, k) },
      vector: {
        search: (vector, k) => this.index.vectorSearch(vector, k),
        similarity: (vector, ids) => this.index.similarity(vector, ids),
      },
      embedder: { id: embedder.id, kind: embedder.kind, embed: (texts, o) => embedder.embedQueries(texts, o) },
      store,
    };
  }

  private isCurrent(request: RecallRequest, signal: AbortSignal): boolean {
    return !signal.aborted && request.requestId === this.latest;
  }

  async recall(request: RecallRequest, port?: RecallLlmPort | null): Promise<RecallResponse> {
    const stale = { requestId: request.requestId, stale: true } as const;
    if (request.requestId < this.latest) return stale;
    this.latest = request.requestId;
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    const target = resolveTarget(request.target);
    if (!target) throw new VaultFailure(vaultError('input/invalid', `Unknown target model "${String(request.target)}".`));
    if (request.prompt.length > MAX_PROMPT_CHARS) {
      throw new VaultFailure(vaultError('input/invalid', `The prompt is longer than ${MAX_PROMPT_CHARS} characters; shorten it.`));
    }
    const llm = await adaptLlm(port);
    const excluded = new Map<string, CandidateRecord>();
    const deps = await this.deps(request, excluded);
    const now = (this.options.now ?? Date.now)();
    const outcome = await recall(
      { prompt: request.prompt, intent: request.intent },
      { ...deps, llm, now, clock: this.options.clock ?? (() => performance.now()) },
      {
        funnel: request.funnel,
        signal: controller.signal,
        ...(this.options.gateTimeoutMs ? { gateTimeoutMs: this.options.gateTimeoutMs } : {}),
      },
    );
    if (!this.isCurrent(request, controller.signal)) return stale;
    if (!outcome.ok) {
      if (outcome.error.code === 'recall/cancelled') return stale;
      throw new VaultFailure(outcome.error);
    }
    const result: RecallResult = await applyPins(outcome.value, request.pinned, deps.store, now);
    if (!this.isCurrent(request, controller.signal)) return stale;
    const assembled = assemblePackage(result.items, { window: target.window, format: request.format, sanitize: readSanitizer });
    this.writeBack.push(result.accessWrites);
    return {
      requestId: request.requestId,
      stale: false,
      result,
      package: assembled,
      excluded: await this.excludedItems(request.dropped, excluded),
      embedderId: deps.embedder.id,
      documents: this.index.state.catalog.size,
    };
  }

  /** The person's drops with their records (read when this query did not retrieve them). */
  private async excludedItems(ids: readonly string[], seen: Map<string, CandidateRecord>): Promise<ExcludedItem[]> {
    const missing = ids.filter((id) => !seen.has(id));
    const read = missing.length ? await this.index.candidates(missing) : [];
    for (const record of read) seen.set(record.id, record);
    return ids.map((id) => ({ id, record: seen.get(id) ?? null }));
  }
}
