import * as Comlink from 'comlink';
import type { EmbedderChoice } from '../core/api/embedder';
import type { EntityLinks, IndexApi, IndexStatus, ModelEntry, ModelFileInput, TopEntity } from '../core/api/index-api';
import type { LlmInfo } from '../core/api/llm-port';
import type { RerankerChoice, RerankerEntry } from '../core/api/reranker';
import type { RecallRequest, RecallResponse } from '../core/api/recall-api';
import type { ConversationSearchRequest, ConversationSearchResult } from '../core/api/conversation-search';
import { vaultWorkerName } from '../core/api/vaults';
import type { Result } from '../core/errors';
import { errors } from './errors.svelte';
import { RpcClient } from './rpc';
import { vaultSession } from './vault-session.svelte';

/**
 * Main-thread face of the index worker: its status as runes (progress, health, the serving
 * embedder, a model download), the model list, the commands of the settings screen, and recall.
 */
export class IndexClient {
  status = $state<IndexStatus | null>(null);
  models = $state<ModelEntry[]>([]);
  rerankers = $state<RerankerEntry[]>([]);
  connection = $state<'starting' | 'ready' | 'failed'>('starting');
  private readonly rpc: RpcClient<IndexApi>;
  // Listeners, not reactive state.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly connectedListeners = new Set<() => void>();

  constructor() {
    this.rpc = new RpcClient<IndexApi>({
      name: 'index worker',
      timeoutMs: 60_000,
      spawn: () =>
        // A worker script URL, not reactive state.
        // eslint-disable-next-line svelte/prefer-svelte-reactivity
        new Worker(new URL('../../../workers/index.worker.ts', import.meta.url), {
          type: 'module',
          name: vaultWorkerName('index', vaultSession.dbName),
        }),
      onRestart: (reason) => {
        errors.report(reason, 'the search index');
        void this.connect();
      },
    });
  }

  /** Subscribes to status changes, then waits until the indexes are loaded. */
  async connect(): Promise<void> {
    try {
      await this.rpc.call('subscribe', [Comlink.proxy((status: IndexStatus) => this.receive(status))]);
      await this.rpc.call('ready', [], 10 * 60_000);
      this.connection = 'ready';
      // A restarted worker has lost what the page handed it (the language model): hand it again.
      for (const listener of this.connectedListeners) listener();
      await this.refreshModels();
    } catch (error) {
      this.connection = 'failed';
      errors.report(error, 'starting the search index');
    }
  }

  private receive(status: IndexStatus): void {
    const previous = this.status;
    this.status = status;
    const switched =
      previous && (previous.serving.embedderId !== status.serving.embedderId || previous.target?.embedderId !== status.target?.embedderId);
    if (switched) void this.refreshModels().catch(() => undefined);
  }

  async refreshModels(): Promise<void> {
    this.models = await this.rpc.call('models', []);
  }

  async refreshRerankers(): Promise<void> {
    this.rerankers = await this.rpc.call('rerankers', []);
  }

  /** Recall's cross-encoder from now on (null: none); resolves once it loaded (a first download can take long). */
  async useReranker(choice: RerankerChoice | null): Promise<void> {
    await this.rpc.call('useReranker', [choice ? ($state.snapshot(choice) as RerankerChoice) : null], 60 * 60_000);
    await this.refreshRerankers();
  }

  async deleteReranker(rerankerId: string): Promise<void> {
    await this.rpc.call('deleteReranker', [rerankerId]);
    await this.refreshRerankers();
  }

  /** Stores a cross-encoder folder's files (or one ZIP) for offline use and lists it. */
  async importRerankerFiles(files: readonly File[]): Promise<RerankerEntry> {
    const inputs: ModelFileInput[] = files.map((f) => ({ path: f.webkitRelativePath || f.name, blob: f }));
    const entry = await this.rpc.call('importRerankerFiles', [inputs], 10 * 60_000);
    await this.refreshRerankers();
    return entry;
  }

  pause(): Promise<void> {
    return this.rpc.call('pause', []);
  }

  resume(): Promise<void> {
    return this.rpc.call('resume', []);
  }

  checkHealth(): Promise<unknown> {
    return this.rpc.call('checkHealth', [], 10 * 60_000);
  }

  async useEmbedder(choice: EmbedderChoice): Promise<void> {
    // Choices come from rune state (proxies, which cannot be cloned): send a plain copy.
    await this.rpc.call('useEmbedder', [$state.snapshot(choice) as EmbedderChoice]);
    await this.refreshModels();
  }

  async deleteModel(embedderId: string): Promise<void> {
    await this.rpc.call('deleteModel', [embedderId]);
    await this.refreshModels();
  }

  /** Stores a model folder's files (or one ZIP) for offline use and lists it. */
  async importModelFiles(files: readonly File[]): Promise<ModelEntry> {
    const inputs: ModelFileInput[] = files.map((f) => ({ path: f.webkitRelativePath || f.name, blob: f }));
    const entry = await this.rpc.call('importModelFiles', [inputs], 10 * 60_000);
    await this.refreshModels();
    return entry;
  }

  /**
   * Recall in the index worker (with the model lent by `setLlm`, if any). Only the newest request
   * yields a result; an older one that finishes later comes back `stale` (the worker also aborts it).
   */
  async recall(request: RecallRequest): Promise<RecallResponse> {
    const answer = await this.rpc.latest('recall', 'recall', [request], 120_000);
    return answer.stale ? { requestId: request.requestId, stale: true } : answer.value;
  }

  /** The Conversations screen's full-text search; null when a newer search superseded this one. */
  async searchConversations(request: ConversationSearchRequest): Promise<ConversationSearchResult | null> {
    const answer = await this.rpc.latest('conversations', 'searchConversations', [request], 30_000);
    return answer.stale ? null : answer.value;
  }

  /** Everything the vault links to an entity (the entity graph in the index worker). */
  entityLinks(name: string, limit = 50): Promise<EntityLinks | null> {
    return this.rpc.call('entityLinks', [name, limit], 30_000);
  }

  /** The entities the vault names in the most conversations (the Overview). */
  topEntities(limit = 12): Promise<TopEntity[]> {
    return this.rpc.call('topEntities', [limit], 30_000);
  }

  /** A read tool of an agent in the page (WebMCP), answered from this tab's vault by the index worker. */
  agentTool(name: string, args: unknown, vaultName: string): Promise<Result<unknown>> {
    return this.rpc.call('agentTool', [name, args, vaultName], 120_000);
  }

  /** Called each time the worker is (re)connected and ready; returns the unsubscribe function. */
  onConnected(listener: () => void): () => void {
    this.connectedListeners.add(listener);
    return () => this.connectedListeners.delete(listener);
  }

  /** Lends a model to the index worker: `port` serves it (transferred); null takes it back. */
  setLlm(info: LlmInfo | null, port: MessagePort | null): Promise<void> {
    return this.rpc.call('setLlm', [info, port ? Comlink.transfer(port, [port]) : null]);
  }
}

let instance: IndexClient | null = null;
let firstConnect: Promise<void> | null = null;

/** The app's one index client, started on first use (browser only). */
export function indexer(): IndexClient {
  if (!instance) {
    instance = new IndexClient();
    firstConnect = instance.connect();
  }
  return instance;
}

/** Settles once the index worker first answered or failed to start (connect() never rejects). */
export function indexerConnected(): Promise<void> {
  indexer();
  return firstConnect!;
}
