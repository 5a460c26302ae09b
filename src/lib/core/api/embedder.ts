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
}
