/**
 * How the index service gets an embedder for a choice. In Node (CLI, tests) the transformers.js
 * embedder runs in-process (in-process-host.ts); in the browser the index worker's host hands neural models to the
 * embed worker (workers/index/embed-worker-host.ts) so the index keeps answering searches while a
 * batch is embedded. The lexical embedder always runs where the index is.
 */
import type { Embedder, EmbedderChoice } from '../../core/api/embedder';
import type { RerankerChoice } from '../../core/api/reranker';
import type { Reranker } from '../../core/recall/rerank';
import type { ModelDownload } from '../../core/api/index-api';
import { LexicalEmbedder } from '../../models/lexical-embedder';
import type { ModelLoadProgress } from '../../models/transformers-embedder';

export interface LoadedEmbedder extends Embedder {
  readonly device: string | null;
  embedQueries(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
  dispose?(): Promise<void>;
}

export interface LoadedReranker extends Reranker {
  readonly device: string | null;
  dispose?(): Promise<void>;
}

export interface EmbedderHost {
  load(choice: EmbedderChoice, onProgress?: (download: ModelDownload) => void): Promise<LoadedEmbedder>;
  /** A cross-encoder for recall's second stage, where the embedders run (the embed worker, or this process in Node). */
  loadReranker?(choice: RerankerChoice, onProgress?: (download: ModelDownload) => void): Promise<LoadedReranker>;
}

export function lexicalEmbedder(): LoadedEmbedder {
  const lexical = new LexicalEmbedder();
  return {
    id: lexical.id,
    dims: lexical.dims,
    kind: 'lexical',
    device: null,
    embed: (texts, options) => lexical.embed(texts, options),
    embedQueries: (texts, options) => lexical.embed(texts, options),
  };
}

/** Turns transformers.js progress events into one download figure over every file of a model. */
export function downloadTracker(embedderId: string, report: (download: ModelDownload) => void): (p: ModelLoadProgress) => void {
  const files = new Map<string, { loaded: number; total: number }>();
  return (p) => {
    if (p.status !== 'progress' || !p.file) return;
    files.set(p.file, { loaded: p.loaded ?? 0, total: p.total ?? 0 });
    let loaded = 0;
    let total = 0;
    for (const f of files.values()) {
      loaded += f.loaded;
      total += f.total;
    }
    report({ embedderId, file: p.file, loaded, total, fraction: total > 0 ? loaded / total : 0 });
  };
}
