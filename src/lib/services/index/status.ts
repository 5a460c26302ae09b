/** The index's status as the settings screen, the progress bar and recall show it. */
import { choiceId, type EmbedderChoice } from '../../core/api/embedder';
import type { EmbedderState, IndexStatus, VectorIndexStatus } from '../../core/api/index-api';
import type { VaultError } from '../../core/errors';
import type { IndexState } from './index-state';
import type { ModelIndex } from './model-index';

export const LEXICAL_LABEL =
  'Lexical fallback: vectors from shared words and spellings, not meaning. Load a neural model for recall by meaning.';

const coverageCache = new WeakMap<ModelIndex, { key: string; covered: number }>();

/** Documents with a current vector in the model's index (cached until either side changes). */
export function coverageOf(state: IndexState, model: ModelIndex): number {
  const key = `${state.catalog.version}:${model.index.labelCursor}:${model.index.count}`;
  const cached = coverageCache.get(model);
  if (cached?.key === key) return cached.covered;
  const covered = state.catalog.covered(model.index);
  coverageCache.set(model, { key, covered });
  return covered;
}

function vectorStatus(state: IndexState, model: ModelIndex | null, choice: EmbedderChoice): VectorIndexStatus {
  return {
    embedderId: choiceId(choice),
    kind: choice.kind === 'lexical' ? 'lexical' : 'neural',
    dims: model?.dims ?? 0,
    count: model ? coverageOf(state, model) : 0,
    total: state.catalog.size,
    ef: model?.index.params.ef ?? 0,
    verifiedAt: model?.verifiedAt ?? null,
  };
}

export function embedderState(state: IndexState, choice: EmbedderChoice): EmbedderState {
  const id = choiceId(choice);
  if (choice.kind === 'lexical') return { id, kind: 'lexical', state: 'ready', device: null, label: LEXICAL_LABEL, error: null };
  const loaded = state.loadedEmbedder(choice);
  const error: VaultError | null = state.embedderErrors.get(id) ?? null;
  const name = `${choice.spec.modelId} (${choice.spec.dtype}, ${choice.spec.dims} dimensions)`;
  if (loaded)
    return {
      id,
      kind: 'neural',
      state: 'ready',
      device: loaded.device,
      label: `${name} on ${loaded.device ?? 'this device'}`,
      error: null,
    };
  if (error) return { id, kind: 'neural', state: 'unavailable', device: null, label: `${name}: not available (${error.message})`, error };
  return { id, kind: 'neural', state: 'loading', device: null, label: `${name}: loading`, error: null };
}

export function indexStatus(
  state: IndexState,
  role: IndexStatus['role'],
  work: IndexStatus['work'],
  error: VaultError | null = null,
): IndexStatus {
  const serving = vectorStatus(state, state.serving, state.servingChoice);
  const target = state.targetChoice ? vectorStatus(state, state.target, state.targetChoice) : null;
  const neural = serving.kind === 'neural' ? serving : target?.kind === 'neural' ? target : null;
  return {
    at: state.now(),
    role,
    error,
    documents: { chunks: state.catalog.chunks, notes: state.catalog.notes, total: state.catalog.size },
    bm25: { documents: state.bm25.size, terms: state.bm25.termCount, ...state.bm25Info },
    serving,
    target,
    neuralCoverage: { embedderId: neural?.embedderId ?? null, covered: neural?.count ?? 0, total: state.catalog.size },
    embedder: embedderState(state, state.servingChoice),
    download: state.download,
    health: state.health,
    notices: state.notices,
    work,
  };
}
