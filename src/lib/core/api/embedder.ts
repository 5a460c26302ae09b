/**
 * An embedding model. Implementations live in src/lib/models (the transformers.js embedder, the
 * lexical embedder); core computes with the vectors only.
 */
export interface Embedder {
  /** Stable id sealed into every stored vector, e.g. `lexical-v1-384` or `transformers:<model>:q8`. */
  readonly id: string;
  readonly dims: number;
  readonly kind: 'lexical' | 'neural';
  /** One L2-normalized vector per text, in order. */
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
  /** Queries, when the model embeds them differently (a query prefix); `embed` otherwise. */
  embedQueries?(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}

export type Pooling = 'mean' | 'cls';
export type ModelDtype = 'fp32' | 'fp16' | 'q8' | 'q4';

/** A transformers.js feature-extraction model as the vault runs it. */
export interface EmbeddingModelSpec {
  /** Hub id, or folder name under the local model path. */
  modelId: string;
  dims: number;
  pooling: Pooling;
  dtype: ModelDtype;
  /** Prepended to queries (not documents) for models trained that way. */
  queryPrefix: string;
}

/** The id sealed into every vector a transformers.js model makes. */
export const transformersEmbedderId = (spec: Pick<EmbeddingModelSpec, 'modelId' | 'dtype'>): string =>
  `transformers:${spec.modelId}:${spec.dtype}`;

/**
 * Where a neural model's files come from: the Hugging Face hub (downloaded once, then cached by
 * transformers.js), the app's own origin (a folder the app serves, e.g. the generated test model),
 * or files the person provided (stored in the browser's model cache under a local path).
 */
export type ModelOrigin = 'hub' | 'origin' | 'files';

/** Which embedder the index uses. The lexical embedder needs nothing and is always available. */
export type EmbedderChoice =
  | { kind: 'lexical' }
  | {
      kind: 'transformers';
      spec: EmbeddingModelSpec;
      origin: ModelOrigin;
      /** `origin`/`files`: the URL path (browser) or folder (Node) holding `<modelId>/config.json`. */
      path?: string;
    };

export const LEXICAL_EMBEDDER_ID = 'lexical-v1-384';

export function choiceId(choice: EmbedderChoice): string {
  return choice.kind === 'lexical' ? LEXICAL_EMBEDDER_ID : transformersEmbedderId(choice.spec);
}
