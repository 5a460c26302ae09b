import type { EmbedderChoice } from './embedder';
import type { RerankerChoice } from './reranker';
import type { ModelDownload } from './index-api';

export interface LoadedModelInfo {
  id: string;
  dims: number;
  /** 'webgpu' when an adapter was handed out, else 'wasm'. */
  device: string;
}

/**
 * The embed worker (workers/embed.worker.ts): transformers.js models off the index worker's
 * thread, so the index keeps answering searches while a batch is embedded. Only the index worker
 * talks to it (workers/index/embed-worker-host.ts).
 */
export interface EmbedApi {
  ping(): Promise<'pong'>;
  /** Loads (downloading and caching when needed); `onProgress` is a comlink proxy. */
  load(choice: EmbedderChoice, onProgress: (download: ModelDownload) => void): Promise<LoadedModelInfo>;
  /** Vectors cross back as transferables. `query` adds the model's query prefix. */
  embed(id: string, texts: string[], mode: 'document' | 'query'): Promise<Float32Array[]>;
  unload(id: string): Promise<void>;
  /** Loads a cross-encoder reranker (downloading and caching when needed); `dims` is 0. */
  loadReranker(choice: RerankerChoice, onProgress: (download: ModelDownload) => void): Promise<LoadedModelInfo>;
  /** One relevance score per passage for the query, in order (one batched call). */
  rerank(id: string, query: string, passages: string[]): Promise<number[]>;
}
