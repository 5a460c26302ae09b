/**
 * The browser's EmbedderHost: the lexical embedder in the index worker, transformers.js models in
 * a nested embed worker (workers/embed.worker.ts) that this host starts on first use. A nested
 * worker rather than a port handed over by the page: the embed worker lives and dies with the index
 * worker, with no page involved. Every call has a timeout; a worker that crashes or stops answering
 * is replaced, and the next call loads its model again.
 */
import * as Comlink from 'comlink';
import type { EmbedApi } from '../../core/api/embed-api';
import { choiceId, type EmbedderChoice } from '../../core/api/embedder';
import { rerankerId, type RerankerChoice } from '../../core/api/reranker';
import type { ModelDownload } from '../../core/api/index-api';
import { isVaultError, vaultError, type VaultError } from '../../core/errors';
import { type EmbedderHost, lexicalEmbedder, type LoadedEmbedder, type LoadedReranker } from './embedder-host';

const LOAD_TIMEOUT_MS = 60 * 60_000; // a first download on a slow line
const BATCH_TIMEOUT_MS = 10 * 60_000;
const QUERY_TIMEOUT_MS = 60_000;

interface Generation {
  worker: Worker;
  remote: Comlink.Remote<EmbedApi>;
  loaded: Map<string, Promise<unknown>>;
  dead: VaultError | null;
  reject: Set<(error: VaultError) => void>;
  kill(message: string): void;
}

export function embedWorkerHost(spawn: () => Worker): EmbedderHost {
  let current: Generation | null = null;

  function generation(): Generation {
    if (current && !current.dead) return current;
    const worker = spawn();
    const gen: Generation = {
      worker,
      remote: Comlink.wrap<EmbedApi>(worker),
      loaded: new Map(),
      dead: null,
      reject: new Set(),
      kill(message) {
        if (gen.dead) return;
        gen.dead = vaultError('worker/crashed', `The embedding worker ${message}; it will be restarted.`);
        for (const reject of gen.reject) reject(gen.dead);
        worker.terminate();
      },
    };
    worker.addEventListener('error', (event) => gen.kill(`crashed (${event.message || 'error'})`));
    worker.addEventListener('messageerror', () => gen.kill('sent an unreadable message'));
    current = gen;
    return gen;
  }

  function call<T>(gen: Generation, work: Promise<T>, ms: number, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const fail = (error: VaultError) => reject(error);
      gen.reject.add(fail);
      const timer = setTimeout(() => {
        reject(vaultError('worker/timeout', `The embedding worker did not finish ${what} in time.`));
        // A batch or query that hangs means a wedged runtime: start over (a slow download does not).
        if (ms !== LOAD_TIMEOUT_MS) gen.kill(`stopped answering while ${what}`);
      }, ms);
      work
        .then(resolve, (thrown: unknown) => reject(isVaultError(thrown) ? thrown : vaultError('embed/failed', String(thrown))))
        .finally(() => {
          clearTimeout(timer);
          gen.reject.delete(fail);
        });
    });
  }

  type AnyChoice = EmbedderChoice | RerankerChoice;
  const idOf = (choice: AnyChoice) => (choice.kind === 'reranker' ? rerankerId(choice) : choiceId(choice));

  /** The model loaded in the live worker (loading it again after a restart). */
  async function ready(choice: AnyChoice, onProgress?: (d: ModelDownload) => void): Promise<Generation> {
    const gen = generation();
    const id = idOf(choice);
    let loaded = gen.loaded.get(id);
    if (!loaded) {
      const progress = Comlink.proxy((d: ModelDownload) => onProgress?.(d));
      loaded = call(
        gen,
        choice.kind === 'reranker' ? gen.remote.loadReranker(choice, progress) : gen.remote.load(choice, progress),
        LOAD_TIMEOUT_MS,
        `loading ${id}`,
      );
      gen.loaded.set(id, loaded);
      loaded.catch(() => gen.loaded.delete(id));
    }
    await loaded;
    return gen;
  }

  return {
    async load(choice, onProgress) {
      if (choice.kind === 'lexical') return lexicalEmbedder();
      const id = choiceId(choice);
      const gen = await ready(choice, onProgress);
      const info = (await gen.loaded.get(id)) as { dims: number; device: string };
      const run = async (texts: readonly string[], mode: 'document' | 'query') => {
        const live = await ready(choice);
        return call(live, live.remote.embed(id, [...texts], mode), mode === 'query' ? QUERY_TIMEOUT_MS : BATCH_TIMEOUT_MS, 'a batch');
      };
      const embedder: LoadedEmbedder = {
        id,
        dims: info.dims,
        kind: 'neural',
        device: info.device,
        embed: (texts) => run(texts, 'document'),
        embedQueries: (texts) => run(texts, 'query'),
        dispose: async () => {
          const live = current;
          if (!live || live.dead) return;
          live.loaded.delete(id);
          await live.remote.unload(id).catch(() => undefined);
        },
      };
      return embedder;
    },
    async loadReranker(choice, onProgress) {
      const id = rerankerId(choice);
      const gen = await ready(choice, onProgress);
      const info = (await gen.loaded.get(id)) as { device: string };
      const reranker: LoadedReranker = {
        id,
        device: info.device,
        score: async (query, passages) => {
          const live = await ready(choice);
          return call(live, live.remote.rerank(id, query, [...passages]), QUERY_TIMEOUT_MS, 'reranking');
        },
        dispose: async () => {
          const live = current;
          if (!live || live.dead) return;
          live.loaded.delete(id);
          await live.remote.unload(id).catch(() => undefined);
        },
      };
      return reranker;
    },
  };
}
