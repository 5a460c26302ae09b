/// <reference lib="webworker" />
// The Trusted Types default policy of this worker, first (src/lib/trusted-types.ts).
import '../src/lib/trusted-types';
import * as Comlink from 'comlink';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import { choiceId } from '../src/lib/core/api/embedder';
import { rerankerId } from '../src/lib/core/api/reranker';
import type { EmbedApi } from '../src/lib/core/api/embed-api';
import { fail } from '../src/lib/core/errors';
import { TransformersEmbedder } from '../src/lib/models/transformers-embedder';
import { TransformersReranker } from '../src/lib/models/transformers-reranker';
import { downloadTracker } from '../src/lib/services/index/embedder-host';
import { exposeApi } from './expose';

/*
 * The embed worker: transformers.js (ONNX Runtime Web) models, WebGPU when an adapter exists and
 * WASM otherwise. ONNX Runtime's WASM comes from our own origin: `wasmPaths.wasm` points at the
 * file Vite emits for it (the JS factory is bundled), so nothing is fetched from a CDN, it works
 * offline once the service worker has cached the file, and no blob: script is imported (the CSP's
 * script-src allows 'self' and 'wasm-unsafe-eval' only). Started by the index worker.
 */
const models = new Map<string, TransformersEmbedder>();
const rerankers = new Map<string, TransformersReranker>();
let loading: Promise<unknown> = Promise.resolve();

const api: EmbedApi = {
  async ping() {
    return 'pong';
  },
  load(choice, onProgress) {
    // One load at a time: transformers.js configures its environment (local or remote) globally.
    const run = loading.then(async () => {
      if (choice.kind !== 'transformers') fail('input/invalid', 'The embed worker runs transformers.js models only.');
      const id = choiceId(choice);
      let embedder = models.get(id);
      if (!embedder) {
        embedder = await TransformersEmbedder.load({
          model: choice.spec,
          source: choice.origin === 'hub' ? { kind: 'remote' } : { kind: 'local', path: choice.path ?? '/' },
          device: 'auto',
          wasmPaths: { wasm: ortWasmUrl },
          onProgress: downloadTracker(id, (download) => onProgress(download)),
        });
        models.set(id, embedder);
      }
      return { id, dims: embedder.dims, device: embedder.device };
    });
    loading = run.catch(() => undefined);
    return run;
  },
  async embed(id, texts, mode) {
    const embedder = models.get(id);
    if (!embedder) fail('embed/unavailable', `The model ${id} is not loaded in the embed worker.`);
    const vectors = mode === 'query' ? await embedder.embedQueries(texts) : await embedder.embed(texts);
    return Comlink.transfer(
      vectors,
      vectors.map((v) => v.buffer as ArrayBuffer),
    );
  },
  async unload(id) {
    const embedder = models.get(id);
    const reranker = rerankers.get(id);
    models.delete(id);
    rerankers.delete(id);
    await embedder?.dispose();
    await reranker?.dispose();
  },
  loadReranker(choice, onProgress) {
    const run = loading.then(async () => {
      const id = rerankerId(choice);
      let reranker = rerankers.get(id);
      if (!reranker) {
        reranker = await TransformersReranker.load({
          model: choice.spec,
          source: choice.origin === 'hub' ? { kind: 'remote' } : { kind: 'local', path: choice.path ?? '/' },
          device: 'auto',
          wasmPaths: { wasm: ortWasmUrl },
          onProgress: downloadTracker(id, (download) => onProgress(download)),
        });
        rerankers.set(id, reranker);
      }
      return { id, dims: 0, device: reranker.device };
    });
    loading = run.catch(() => undefined);
    return run;
  },
  async rerank(id, query, passages) {
    const reranker = rerankers.get(id);
    if (!reranker) fail('embed/unavailable', `The reranker ${id} is not loaded in the embed worker.`);
    return reranker.score(query, passages);
  },
};

exposeApi(api);
