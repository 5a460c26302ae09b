/**
 * Neural embedding models the vault knows how to run. The default is chosen by published retrieval
 * quality per size (MTEB retrieval nDCG@10) and by speed on a 2-core machine without a GPU:
 *
 *   model                              params  dims  MTEB retrieval
 *   Snowflake/snowflake-arctic-embed-xs  22M    384   50.15  (6 layers)
 *   BAAI/bge-small-en-v1.5               33M    384   51.68  (12 layers)
 *   thenlper/gte-small                   33M    384   49.46  (12 layers)
 *   sentence-transformers/all-MiniLM-L6-v2 22M  384   41.95  (6 layers)
 *
 * arctic-embed-xs keeps bge-small's retrieval within 1.5 points at two thirds of the weights and
 * half the layers (about twice the throughput on WASM, where embedding is the bottleneck), and
 * beats MiniLM-L6, the same size, by 8 points. It ships ONNX weights for transformers.js
 * (onnx/model_quantized.onnx = q8). It was trained with CLS pooling and a query prefix.
 */

export type Pooling = 'mean' | 'cls';
export type ModelDtype = 'fp32' | 'fp16' | 'q8' | 'q4';

export interface EmbeddingModelSpec {
  /** Hub id, or folder name under the local model path. */
  modelId: string;
  dims: number;
  pooling: Pooling;
  dtype: ModelDtype;
  /** Prepended to queries (not documents) for models trained that way. */
  queryPrefix: string;
}

export const ARCTIC_EMBED_XS: EmbeddingModelSpec = {
  modelId: 'Snowflake/snowflake-arctic-embed-xs',
  dims: 384,
  pooling: 'cls',
  dtype: 'q8',
  queryPrefix: 'Represent this sentence for searching relevant passages: ',
};

export const DEFAULT_EMBEDDING_MODEL = ARCTIC_EMBED_XS;

/** The generated test model (scripts/make-test-model.ts): fp32, mean pooling, 32 dims. */
export const TINY_TEST_MODEL: EmbeddingModelSpec = { modelId: 'tiny-bert', dims: 32, pooling: 'mean', dtype: 'fp32', queryPrefix: '' };

/** The id sealed into every vector this model makes. */
export const embedderId = (spec: EmbeddingModelSpec): string => `transformers:${spec.modelId}:${spec.dtype}`;
