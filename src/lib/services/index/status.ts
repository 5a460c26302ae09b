/**
 * The index's status as the settings screen, the progress bar and recall show it: derived from the
 * parts each time it is asked for (nothing here is stored), plus what the host knows (the tab's
 * role, the job queue's work, a start-up failure).
 */
import { choiceId, type EmbedderChoice } from '../../core/api/embedder';
import type { EmbedderState, IndexStatus, VectorIndexStatus } from '../../core/api/index-api';
import type { VaultError } from '../../core/errors';
import type { IndexParts } from './index-parts';
import type { ModelIndex } from './model-index';
import type { IndexSlot } from './vector-indexes';

export const LEXICAL_LABEL =
  'Lexical fallback: vectors from shared words and spellings, not meaning. Load a neural model for recall by meaning.';

const coverageCache = new WeakMap<ModelIndex, { key: string; covered: number }>();

/** Documents with a current vector in the model's index (cached until either side changes). */
export function coverageOf(parts: IndexParts, model: ModelIndex): number {
  const key = `${parts.catalog.version}:${model.index.labelCursor}:${model.index.count}`;
  const cached = coverageCache.get(model);
  if (cached?.key === key) return cached.covered;
  const covered = parts.catalog.covered(model.index);
  coverageCache.set(model, { key, covered });
  return covered;
}

function vectorStatus(parts: IndexParts, slot: IndexSlot): VectorIndexStatus {
  const { model, choice } = slot;
  return {
    embedderId: choiceId(choice),
    kind: choice.kind === 'lexical' ? 'lexical' : 'neural',
    dims: model?.dims ?? 0,
    count: model ? coverageOf(parts, model) : 0,
    total: parts.catalog.size,
    structure: model?.index.structure ?? 'int8',
    ef: model && model.index.structure === 'hnsw' ? model.index.params.ef : 0,
    verifiedAt: model?.verifiedAt ?? null,
  };
}

export function embedderState(parts: IndexParts, choice: EmbedderChoice): EmbedderState {
  const id = choiceId(choice);
  if (choice.kind === 'lexical') return { id, kind: 'lexical', state: 'ready', device: null, label: LEXICAL_LABEL, error: null };
  const loaded = parts.embedders.loaded(choice);
  const error: VaultError | null = parts.embedders.errorOf(choice);
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
  parts: IndexParts,
  role: IndexStatus['role'],
  work: IndexStatus['work'],
  error: VaultError | null = null,
): IndexStatus {
  const serving = vectorStatus(parts, parts.indexes.serving);
  const target = parts.indexes.target ? vectorStatus(parts, parts.indexes.target) : null;
  const neural = serving.kind === 'neural' ? serving : target?.kind === 'neural' ? target : null;
  return {
    at: parts.now(),
    role,
    error,
    documents: { chunks: parts.catalog.chunks, notes: parts.catalog.notes, total: parts.catalog.size },
    bm25: { documents: parts.bm25.size, terms: parts.bm25.termCount, ...parts.bm25.info },
    serving,
    target,
    neuralCoverage: { embedderId: neural?.embedderId ?? null, covered: neural?.count ?? 0, total: parts.catalog.size },
    embedder: embedderState(parts, parts.indexes.serving.choice),
    download: parts.embedders.download,
    health: parts.health.report,
    notices: [...parts.notices.list],
    work,
  };
}
