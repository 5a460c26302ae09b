/**
 * A cross-encoder reranker as the vault runs it (a transformers.js text-classification model over
 * query/passage pairs), chosen in Settings like the embedders: the same origins (the hub, the app's
 * own origin, files the person provided) and the same model cache.
 */
import type { ModelDtype, ModelOrigin } from './embedder';

export interface RerankerModelSpec {
  /** Hub id, or folder name under the local model path. */
  modelId: string;
  dtype: ModelDtype;
  /** Parameters, for the list in Settings (null when unknown, e.g. provided files). */
  params?: number | null;
  /** Size of the weights to download (bytes), for the list in Settings. */
  downloadBytes?: number | null;
  /** One line for the list. */
  description?: string;
}

export interface RerankerChoice {
  kind: 'reranker';
  spec: RerankerModelSpec;
  origin: ModelOrigin;
  /** `origin`/`files`: the URL path (browser) or folder (Node) holding `<modelId>/config.json`. */
  path?: string;
}

export const rerankerId = (choice: Pick<RerankerChoice, 'spec'>): string => `reranker:${choice.spec.modelId}:${choice.spec.dtype}`;

/** A reranker in the Settings list, with its cache state. */
export interface RerankerEntry {
  rerankerId: string;
  choice: RerankerChoice;
  label: string;
  cached: boolean;
  bytes: number | null;
  files: number;
  /** The one recall uses. */
  active: boolean;
}

/** The reranker's state for the status line. */
export interface RerankerState {
  id: string;
  state: 'ready' | 'loading' | 'unavailable';
  device: string | null;
  label: string;
  error: { code: string; message: string } | null;
}
