/// <reference lib="webworker" />
// The Trusted Types default policy of this worker, first (src/lib/trusted-types.ts).
import '../src/lib/trusted-types';
import * as Comlink from 'comlink';
import type { EmbedderChoice } from '../src/lib/core/api/embedder';
import type { RerankerChoice } from '../src/lib/core/api/reranker';
import type { LlmPort } from '../src/lib/core/api/llm-port';
import { newId } from '../src/lib/core/ids';
import { cacheModelLibrary, cacheRerankerLibrary } from '../src/lib/models/model-library';
import { embedWorkerHost } from '../src/lib/services/index/embed-worker-host';
import { IndexHost } from '../src/lib/services/index/index-host';
import { openIndexCache } from '../src/lib/store/vector-index-manifest';
import { vaultScoped } from '../src/lib/core/api/vaults';
import { openRegisteredVault } from '../src/lib/services/vaults/open-vault';
import { boundDbName, workerLocks } from './bound-vault';
import { exposeApi } from './expose';

/*
 * The index worker: chunks, BM25, the vector index, recall and the index and extraction jobs
 * (src/lib/services/index/index-host.ts). This file only hands the host what a worker has: Web
 * Locks, the model cache, the nested embed worker, the channel to other tabs' index workers of the
 * same vault. It serves the one vault it was started for; the index cache database is shared by
 * every vault, its entries named after the vault (IndexParts.scope), and so are the HNSW files.
 */
const cache = openIndexCache();
const dbName = boundDbName();
const locks = workerLocks();

exposeApi(
  new IndexHost({
    workerId: newId('worker'),
    locks,
    vaultDbName: dbName,
    openVault: () => openRegisteredVault(dbName, { locks }),
    cache,
    library: ({ blobs }) =>
      cacheModelLibrary({
        caches: self.caches,
        fetch: self.fetch.bind(self),
        origin: self.location.origin,
        registry: {
          get: async () => (await blobs.get<EmbedderChoice[]>('models:provided')) ?? [],
          set: (choices) => blobs.put('models:provided', choices),
        },
      }),
    rerankerLibrary: ({ blobs }) =>
      cacheRerankerLibrary({
        caches: self.caches,
        fetch: self.fetch.bind(self),
        origin: self.location.origin,
        registry: {
          get: async () => (await blobs.get<RerankerChoice[]>('rerankers:provided')) ?? [],
          set: (choices) => blobs.put('rerankers:provided', choices),
        },
      }),
    embedderHost: () => embedWorkerHost(() => new Worker(new URL('./embed.worker.ts', import.meta.url), { type: 'module', name: 'embed' })),
    channel: typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(vaultScoped('engram-index', dbName)),
    lentModel: (port) => Comlink.wrap<LlmPort>(port),
  }),
);
