/// <reference lib="webworker" />
// The Trusted Types default policy of this worker, first (src/lib/trusted-types.ts).
import '../src/lib/trusted-types';
import type { EmbedderChoice } from '../src/lib/core/api/embedder';
import { EXTRACT_JOB } from '../src/lib/core/api/extract-api';
import type { Llm } from '../src/lib/core/api/llm';
import { INDEX_JOBS, indexRebuildJob, type IndexApi, type IndexStatus } from '../src/lib/core/api/index-api';
import { newId } from '../src/lib/core/ids';
import { toVaultError, type VaultError } from '../src/lib/core/errors';
import { cacheModelLibrary } from '../src/lib/models/model-library';
import { JobRunner } from '../src/lib/store/job-runner';
import { openIndexCache } from '../src/lib/store/vector-index-manifest';
import { openVault, type Vault } from '../src/lib/store/vault';
import { exposeApi } from './expose';
import { embedWorkerHost } from './index/embed-worker-host';
import { extractHandler } from './index/extract-job';
import { indexNeighbours } from './index/index-neighbours';
import { RemoteLlm } from './index/remote-llm';
import { IndexService } from './index/index-service';
import { RecallService } from './index/recall-service';
import { holdWorkerLock, workerAlive, waitForLock } from './worker-locks';

/*
 * The index worker: chunks, BM25, the vector index, and the index jobs. One tab leads (it holds
 * the Web Lock `engram-index-leader`, runs the index jobs and writes the indexes); the index
 * workers of other tabs follow: they serve searches from what the leader saved and reload when it
 * says it saved (BroadcastChannel), and the first of them to get the lock takes over when the
 * leader's tab closes. Neural models run in a nested embed worker (workers/index/embed-worker-host.ts).
 */
const workerId = newId('worker');
const LEADER_LOCK = 'engram-index-leader';
const INDEX_TYPES = Object.values(INDEX_JOBS) as string[];
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('engram-index');
const listeners = new Set<(status: IndexStatus) => void>();
const cache = openIndexCache();

let role: IndexStatus['role'] = 'starting';
let failure: VaultError | null = null;
let service: IndexService | null = null;
let recaller: RecallService | null = null;
let runner: JobRunner | null = null;
let work: IndexStatus['work'] = { paused: false, running: null, pending: 0 };
/** The page's language model, lent for extraction (null: the rule-based extractor runs). */
let pageLlm: Llm | null = null;

function newService(vault: Vault, readOnly: boolean): IndexService {
  const library = cacheModelLibrary({
    caches: self.caches,
    fetch: self.fetch.bind(self),
    origin: self.location.origin,
    registry: {
      get: async () => (await cache.blobs.get<EmbedderChoice[]>('models:provided')) ?? [],
      set: (choices) => cache.blobs.put('models:provided', choices),
    },
  });
  const host = embedWorkerHost(() => new Worker(new URL('./embed.worker.ts', import.meta.url), { type: 'module', name: 'embed' }));
  const created = new IndexService({ vault, cache, host, library, readOnly, onSaved: () => channel?.postMessage({ type: 'saved' }) });
  created.state.onChange(() => notifySoon());
  return created;
}

async function refreshWork(vault: Vault): Promise<void> {
  const pending = await vault.db.jobs
    .where('status')
    .equals('pending')
    .filter((j) => INDEX_TYPES.includes(j.type))
    .count();
  const snapshot = runner ? await runner.snapshot() : null;
  // The index panels show index work; extraction (same runner) reports its progress on the Inbox.
  const running = snapshot?.running.find((r) => INDEX_TYPES.includes(r.type)) ?? null;
  work = { paused: runner?.isPaused ?? false, running, pending };
}

let notifyTimer: ReturnType<typeof setTimeout> | null = null;
function notifySoon(): void {
  notifyTimer ??= setTimeout(() => {
    notifyTimer = null;
    void started.then(async ({ vault }) => {
      await refreshWork(vault).catch(() => undefined);
      const status = currentStatus();
      for (const listener of listeners) listener(status);
    });
  }, 200);
}

function currentStatus(): IndexStatus {
  if (!service) {
    const empty = { embedderId: 'lexical-v1-384', kind: 'lexical' as const, dims: 0, count: 0, total: 0, ef: 0, verifiedAt: null };
    return {
      at: Date.now(),
      role,
      error: failure,
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
  return service.status(role, work, failure);
}

async function lead(vault: Vault): Promise<void> {
  const leader = newService(vault, false);
  await leader.start();
  service = leader;
  role = 'leader';
  runner = new JobRunner({
    jobs: vault.jobs,
    workerId,
    // Extraction runs here too: it needs the store and the index's neighbour search (extract-job.ts).
    handlers: { ...leader.handlers(), [EXTRACT_JOB]: extractHandler({ vault, neighbours: indexNeighbours(leader), llm: () => pageLlm }) },
    holderAlive: workerAlive,
    onChange: () => notifySoon(),
  });
  leader.onQueued = () => runner?.kick();
  if (await vault.settings.get('index.paused')) runner.pause();
  runner.start();
  notifySoon();
}

const started = (async () => {
  await holdWorkerLock(workerId);
  const vault = await openVault();
  try {
    if (await waitForLock(LEADER_LOCK, { ifAvailable: true })) await lead(vault);
    else {
      service = newService(vault, true);
      await service.start();
      role = 'follower';
      channel?.addEventListener('message', () => {
        if (role === 'follower') void service?.reload().then(notifySoon, () => undefined);
      });
      void waitForLock(LEADER_LOCK).then(() => lead(vault));
    }
  } catch (thrown) {
    failure = toVaultError(thrown, 'index/failed');
    role = 'failed';
  }
  notifySoon();
  return { vault };
})();

async function ready(): Promise<IndexService> {
  await started;
  if (!service) throw failure ?? toVaultError(new Error('The index did not start.'), 'index/failed');
  return service;
}

const api: IndexApi = {
  async ping() {
    return 'pong';
  },
  async ready() {
    await ready();
    return { workerId, role };
  },
  async status() {
    await started;
    return currentStatus();
  },
  async subscribe(listener) {
    listeners.add(listener);
    listener(currentStatus());
  },
  lexicalSearch: async (query, k) => (await ready()).lexicalSearch(query, k),
  vectorSearch: async (vector, k) => (await ready()).vectorSearch(vector, k),
  similarity: async (vector, ids) => (await ready()).similarity(vector, ids),
  candidates: async (ids) => (await ready()).candidates(ids),
  embedQuery: async (text) => (await ready()).embedQuery(text),
  async recall(request, llm) {
    const current = await ready();
    if (recaller === null || recaller.index !== current) {
      recaller = new RecallService(current, {
        onWriteBackError: (error) =>
          current.state.notice('store/failed', `Could not record which notes recall read: ${toVaultError(error).message}`),
      });
    }
    return recaller.recall(request, llm ?? null);
  },
  async pause() {
    const { vault } = await started;
    await vault.settings.set('index.paused', true);
    runner?.pause();
    notifySoon();
  },
  async resume() {
    const { vault } = await started;
    await vault.settings.set('index.paused', false);
    runner?.resume();
    notifySoon();
  },
  checkHealth: async () => (await ready()).checkHealth(),
  async reindex() {
    const { vault } = await started;
    const job = await vault.jobs.enqueue(indexRebuildJob(), Date.now());
    runner?.kick();
    return job.id;
  },
  models: async () => (await ready()).models(),
  useEmbedder: async (choice) => (await ready()).useEmbedder(choice),
  deleteModel: async (embedderId) => (await ready()).deleteModel(embedderId),
  importModelFiles: async (files, overrides) => (await ready()).importModelFiles(files, overrides),
  async setLlm(info, bridge) {
    pageLlm = info && bridge ? new RemoteLlm(info, bridge) : null;
  },
};

exposeApi(api);
