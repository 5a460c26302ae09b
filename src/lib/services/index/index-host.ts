/**
 * The index worker's API (core/api/index-api.ts) as a plain object: leadership between tabs, the
 * job runner of the leader (index jobs and extraction), status subscriptions, recall, and the
 * language model lent by the page. The worker entry (workers/index.worker.ts) only supplies what
 * its environment has (Web Locks, the model cache, the embed worker, a BroadcastChannel) and
 * exposes this; tests build one over fake-indexeddb the same way.
 */
import type { EmbedderChoice } from '../../core/api/embedder';
import type { RerankerChoice } from '../../core/api/reranker';
import { StageBreakers } from '../../core/breaker/circuit-breaker';
import { EXTRACT_JOB } from '../../core/api/extract-api';
import {
  COMMUNITY_SUMMARY_JOB,
  communitySummaryJob,
  INDEX_JOBS,
  indexRebuildJob,
  type IndexApi,
  type IndexReady,
  type IndexStatus,
  type IndexWork,
} from '../../core/api/index-api';
import type { Llm } from '../../core/api/llm';
import type { LlmInfo } from '../../core/api/llm-port';
import { err, toVaultError, vaultError, type Result } from '../../core/errors';
import type { ModelLibrary, RerankerLibrary } from '../../models/model-library';
import { JobRunner } from '../../store/job-runner';
import type { Vault } from '../../store/vault';
import type { BlobStore, ManifestStore } from '../../store/vector-index-manifest';
import { AgentTools } from '../agent/agent-tools';
import { extractHandler } from '../extraction/extract-job';
import { indexNeighbours } from '../extraction/index-neighbours';
import { queueReextraction } from '../extraction/reextract';
import { RemoteLlm } from '../llm/remote-llm';
import { holdLock, workerAlive, workerLockName } from '../locks';
import { RecallService } from '../recall/recall-service';
import { RerankerSlot } from '../recall/reranker-slot';
import { Rerankers } from '../recall/rerankers';
import { readCandidates } from './candidates';
import { communitySummaryHandler } from './community-summaries';
import type { EmbedderHost } from './embedder-host';
import { IndexService } from './index-service';
import { LeaderRole } from './leader-role';

const INDEX_TYPES = Object.values(INDEX_JOBS) as string[];
/** Status updates are sent at most this often (a batch of embeddings changes it many times a second). */
const NOTIFY_MS = 200;

/** A BroadcastChannel as the host uses it: "I saved" goes out, other tabs reload. */
export interface SavedChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: () => void): void;
}

export interface IndexHostPlatform {
  workerId: string;
  locks: LockManager | undefined;
  /** The vault database this host serves: its leader lock, its workers' locks and its channel carry it. */
  vaultDbName: string;
  openVault(): Promise<Vault>;
  cache: { manifests: ManifestStore; blobs: BlobStore };
  /** Cached and provided model files (browser only). */
  library?: (cache: { blobs: BlobStore }) => ModelLibrary;
  /** The same for rerankers. */
  rerankerLibrary?: (cache: { blobs: BlobStore }) => RerankerLibrary;
  embedderHost(): EmbedderHost;
  channel: SavedChannel | null;
  /** The lent model's port (a MessagePort) as callable methods: comlink in the worker. */
  lentModel(port: MessagePort): ConstructorParameters<typeof RemoteLlm>[1];
  now?: () => number;
}

export class IndexHost implements IndexApi {
  readonly #role: LeaderRole;
  readonly #listeners = new Set<(status: IndexStatus) => void>();
  readonly #started: Promise<Vault>;
  #service: IndexService | null = null;
  #recaller: RecallService | null = null;
  #runner: JobRunner | null = null;
  #llm: Llm | null = null;
  /** One circuit breaker per model stage, shared by recall and extraction (the status line shows the open ones). */
  readonly #breakers: StageBreakers;
  #rerankers: { slot: RerankerSlot; list: Rerankers } | null = null;
  #notifyTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly platform: IndexHostPlatform) {
    this.#role = new LeaderRole(platform.locks, platform.vaultDbName);
    this.#breakers = new StageBreakers({ now: () => this.#now() });
    this.#started = this.#start();
    // The chosen reranker starts loading (downloading, the first time) as soon as the index is up.
    void this.#started.then(() => this.#rerankerParts()).catch(() => undefined);
  }

  #now(): number {
    return (this.platform.now ?? Date.now)();
  }

  #newService(vault: Vault, readOnly: boolean): IndexService {
    const { cache, channel } = this.platform;
    const created = new IndexService({
      vault,
      cache,
      host: this.platform.embedderHost(),
      ...(this.platform.library ? { library: this.platform.library(cache) } : {}),
      readOnly,
      onSaved: () => channel?.postMessage({ type: 'saved' }),
    });
    created.onChange(() => this.#notifySoon());
    return created;
  }

  async #lead(vault: Vault): Promise<void> {
    const leader = this.#newService(vault, false);
    await leader.start();
    this.#service = leader;
    // A recall service made while following reads the follower's index, which stops reloading now:
    // the next recall makes one over the leader's (a tab opened while another page still led
    // answered "holds nothing" from a stale index for good).
    this.#recaller = null;
    this.#role.leading();
    this.#runner = new JobRunner({
      jobs: vault.jobs,
      workerId: this.platform.workerId,
      // Extraction runs here too: it needs the store and the index's neighbour search (extract-job.ts).
      handlers: {
        ...leader.handlers(),
        [EXTRACT_JOB]: extractHandler({ vault, neighbours: indexNeighbours(leader), llm: () => this.#llm, breakers: this.#breakers }),
        [COMMUNITY_SUMMARY_JOB]: communitySummaryHandler({
          parts: leader.parts,
          read: (ids) => readCandidates(vault, ids),
          llm: () => this.#llm,
          breakers: this.#breakers,
          onWritten: () => leader.structure.recheck(),
        }),
      },
      holderAlive: workerAlive(this.platform.locks, this.platform.vaultDbName),
      onChange: () => this.#notifySoon(),
    });
    leader.onQueued = () => this.#runner?.kick();
    // While a model is loaded, each rebuild of the structural index (the graph changed) queues the
    // model's summaries of the communities whose members or documents changed.
    leader.structure.onBuilt = () => void this.#queueCommunitySummaries();
    if (await vault.settings.get('index.paused')) this.#runner.pause();
    this.#runner.start();
    // A new extractor version re-extracts the conversations of never-reviewed older candidates (reextract.ts).
    void queueReextraction(vault, () => this.#now()).then(
      (queued) => (queued > 0 ? this.#runner?.kick() : undefined),
      () => undefined,
    );
    this.#notifySoon();
  }

  async #start(): Promise<Vault> {
    await holdLock(this.platform.locks, workerLockName(this.platform.vaultDbName, this.platform.workerId));
    const vault = await this.platform.openVault();
    if (vault.db.name !== this.platform.vaultDbName)
      throw new Error(`The index host of ${this.platform.vaultDbName} was handed the vault ${vault.db.name}.`);
    try {
      if (await this.#role.tryLead()) await this.#lead(vault);
      else {
        this.#service = this.#newService(vault, true);
        await this.#service.start();
        this.#role.following();
        this.platform.channel?.addEventListener('message', () => {
          if (this.#role.role === 'follower')
            void this.#service?.reload().then(
              () => this.#notifySoon(),
              () => undefined,
            );
        });
        void this.#role.waitForLead().then(() => this.#lead(vault));
      }
    } catch (thrown) {
      this.#role.failed(thrown);
    }
    this.#notifySoon();
    return vault;
  }

  async #loaded(): Promise<IndexService> {
    await this.#started;
    if (!this.#service) throw this.#role.error ?? toVaultError(new Error('The index did not start.'), 'index/failed');
    return this.#service;
  }

  /** The index work of the queue (extraction, on the same runner, reports its progress on the Inbox). */
  async #work(vault: Vault): Promise<IndexStatus['work']> {
    // From the index alone: a heavy import queues thousands of extraction jobs, and this runs on
    // every status notification.
    const pending = await vault.jobs.countOfTypes(INDEX_TYPES, 'pending');
    const failed = pending > 0 ? await vault.jobs.firstFailing(INDEX_TYPES) : null;
    // The running job from the runner's memory: its snapshot counts every job by status.
    const now = this.#runner?.runningNow() ?? null;
    const running = now && INDEX_TYPES.includes(now.type) ? now : null;
    const failing = failed?.error ? { error: toVaultError(failed.error), retryAt: failed.runAfter } : null;
    return { paused: this.#runner?.isPaused ?? false, running, pending, failing };
  }

  async #currentStatus(): Promise<IndexStatus> {
    const vault = await this.#started;
    // A queue that cannot be read is said to be so, never shown as "up to date".
    const work: IndexWork = await this.#work(vault).catch((error: unknown) => ({
      paused: false,
      running: null,
      pending: 0,
      unread: toVaultError(error),
    }));
    const models = {
      reranker: this.#rerankers?.slot.state() ?? null,
      rerankerDownload: this.#rerankers?.slot.download ?? null,
      breakers: this.#breakers.tripped(),
    };
    if (this.#service) return { ...this.#service.status(this.#role.role, work, this.#role.error), ...models };
    return { ...startingStatus(this.#now(), this.#role.role, this.#role.error, work), ...models };
  }

  /**
   * Prefetch runs only with a model stage to save time on, and waits while an import runs (a running import row younger than an hour: an older one
   * is a crashed tab's) or index work is queued or running (what it would compute is about to change).
   */
  async #prefetchAdmission(vault: Vault): Promise<string | null> {
    // Without a model stage a recall takes milliseconds: there is no time to save.
    if (!this.#llm && !this.#rerankers?.slot.current()) return 'no model stage makes recall slow';
    const since = this.#now() - 3_600_000;
    const importing = await vault.db.imports
      .where('status')
      .equals('running')
      .filter((i) => i.startedAt > since)
      .count();
    if (importing > 0) return 'an import is running';
    const work = await this.#work(vault);
    if (work.running || (!work.paused && work.pending > 0)) return 'the index is being updated';
    return null;
  }

  /** The reranker slot and list, over the service's embedder host (the one embed worker). */
  async #rerankerParts(): Promise<{ slot: RerankerSlot; list: Rerankers }> {
    const current = await this.#loaded();
    if (!this.#rerankers) {
      const slot = new RerankerSlot(current.parts.deps.host, current.parts.vault.settings, () => this.#notifySoon());
      const library = this.platform.rerankerLibrary?.(this.platform.cache) ?? null;
      this.#rerankers = { slot, list: new Rerankers(slot, library) };
      await slot.restore().catch(() => undefined);
    }
    return this.#rerankers;
  }

  #notifySoon(): void {
    if (this.#notifyTimer !== null) return;
    this.#notifyTimer = setTimeout(() => {
      this.#notifyTimer = null;
      void this.#currentStatus().then((status) => {
        for (const listener of this.#listeners) listener(status);
      });
    }, NOTIFY_MS);
  }

  async ping(): Promise<'pong'> {
    return 'pong';
  }

  async ready(): Promise<IndexReady> {
    await this.#loaded();
    return { workerId: this.platform.workerId, role: this.#role.role };
  }

  async status(): Promise<IndexStatus> {
    return this.#currentStatus();
  }

  async subscribe(listener: (status: IndexStatus) => void): Promise<void> {
    this.#listeners.add(listener);
    listener(await this.#currentStatus());
  }

  async #recallService(): Promise<RecallService> {
    const current = await this.#loaded();
    const { slot } = await this.#rerankerParts();
    if (this.#recaller === null) {
      this.#recaller = new RecallService(current.recallSources(), current.parts.vault, {
        llm: () => this.#llm,
        reranker: () => slot.current(),
        rerankerUnavailable: () => slot.unavailable(),
        prefetch: { admission: () => this.#prefetchAdmission(current.parts.vault) },
        breakers: this.#breakers,
        now: () => this.#now(),
        onWriteBackError: (error) =>
          current.parts.notices.add('store/failed', `Could not record which notes recall read: ${toVaultError(error).message}`),
      });
    }
    return this.#recaller;
  }

  async recall(...[request]: Parameters<IndexApi['recall']>): ReturnType<IndexApi['recall']> {
    return (await this.#recallService()).recall(request);
  }

  async agentTool(name: string, args: unknown, vaultName: string): Promise<Result<unknown>> {
    if (name === 'remember') return err(vaultError('agent/refused', 'remember needs the person’s confirmation in the page.'));
    const recaller = await this.#recallService();
    const vault = await this.#started;
    const tools = new AgentTools(
      {
        names: () => [vaultName],
        get: async () => ({ name: vaultName, vault, recaller }),
        remember: () => Promise.reject(vaultError('agent/refused', 'remember needs the person’s confirmation in the page.')),
      },
      // This device's Recall setting, as the Recall screen applies it.
      { flaggedLines: () => vault.settings.get('device.recall.flaggedLines') },
    );
    return tools.call(name, args);
  }

  async entityLinks(...[name, limit]: Parameters<IndexApi['entityLinks']>): ReturnType<IndexApi['entityLinks']> {
    const current = await this.#loaded();
    return current.entityLinks(name, limit);
  }

  async searchConversations(...[request]: Parameters<IndexApi['searchConversations']>): ReturnType<IndexApi['searchConversations']> {
    return (await this.#loaded()).searchConversations(request);
  }

  async topEntities(...[limit]: Parameters<IndexApi['topEntities']>): ReturnType<IndexApi['topEntities']> {
    const current = await this.#loaded();
    return current.topEntities(limit);
  }

  async pause(): Promise<void> {
    const vault = await this.#started;
    await vault.settings.set('index.paused', true);
    this.#runner?.pause();
    this.#notifySoon();
  }

  async resume(): Promise<void> {
    const vault = await this.#started;
    await vault.settings.set('index.paused', false);
    this.#runner?.resume();
    this.#notifySoon();
  }

  async checkHealth() {
    return (await this.#loaded()).checkHealth();
  }

  async reindex(): Promise<string> {
    const vault = await this.#started;
    const job = await vault.jobs.enqueue(indexRebuildJob(), this.#now());
    this.#runner?.kick();
    return job.id;
  }

  async models() {
    return (await this.#loaded()).models();
  }

  async useEmbedder(choice: EmbedderChoice): Promise<void> {
    return (await this.#loaded()).useEmbedder(choice);
  }

  async deleteModel(embedderId: string): Promise<void> {
    return (await this.#loaded()).deleteModel(embedderId);
  }

  async importModelFiles(...args: Parameters<IndexApi['importModelFiles']>) {
    return (await this.#loaded()).importModelFiles(...args);
  }

  async rerankers() {
    return (await this.#rerankerParts()).list.entries();
  }

  async useReranker(choice: RerankerChoice | null): Promise<void> {
    await (await this.#rerankerParts()).list.use(choice);
    this.#notifySoon();
  }

  async deleteReranker(rerankerId: string): Promise<void> {
    await (await this.#rerankerParts()).list.delete(rerankerId);
    this.#notifySoon();
  }

  async importRerankerFiles(...[files]: Parameters<IndexApi['importRerankerFiles']>) {
    return (await this.#rerankerParts()).list.importFiles(files);
  }

  async setLlm(info: LlmInfo | null, port: MessagePort | null): Promise<void> {
    this.#llm = info && port ? new RemoteLlm(info, this.platform.lentModel(port)) : null;
    // Another model (or none): what the breakers learned about the last one no longer holds.
    for (const stage of ['fit-gate', 'decompose', 'intent', 'extraction', 'summaries', 'hints'] as const) this.#breakers.get(stage).reset();
    await this.#queueCommunitySummaries();
    this.#notifySoon();
  }

  /** Queues the model's community summaries (one pending job at most), when this worker leads and a model is loaded. */
  async #queueCommunitySummaries(): Promise<void> {
    // Only the leader runs jobs and holds the graph the job reads.
    const leader = this.#runner ? this.#service : null;
    if (!leader || !this.#llm) return;
    await leader.parts.vault.jobs.enqueue(communitySummaryJob(), this.#now()).catch(() => undefined);
    this.#runner?.kick();
  }
}

/** What the status says before the index has loaded (or when it could not). */
function startingStatus(at: number, role: IndexStatus['role'], error: IndexStatus['error'], work: IndexStatus['work']): IndexStatus {
  const empty = {
    embedderId: 'lexical-v1-384',
    kind: 'lexical' as const,
    dims: 0,
    count: 0,
    total: 0,
    structure: 'int8' as const,
    ef: 0,
    verifiedAt: null,
  };
  return {
    at,
    role,
    error,
    documents: { chunks: 0, notes: 0, total: 0 },
    bm25: { documents: 0, terms: 0, loadedFrom: 'empty', verifiedAt: null },
    serving: empty,
    target: null,
    neuralCoverage: { embedderId: null, covered: 0, total: 0 },
    embedder: { id: empty.embedderId, kind: 'lexical', state: 'loading', device: null, label: 'Starting the index…', error: null },
    download: null,
    health: null,
    notices: [],
    work,
  };
}
