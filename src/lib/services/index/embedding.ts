/**
 * Embedding: documents without a current vector are embedded in batches, in embedding order, for
 * the serving embedder first (new content becomes searchable) and then for the target embedder (a
 * model switch in the background). When the target covers every document it becomes the serving
 * embedder in one step and the old index is dropped: a search never sees two embedders' vectors.
 */
import { choiceId, type EmbedderChoice } from '../../core/api/embedder';
import type { HealthReport } from '../../core/api/index-api';
import { withStoreTimeout } from '../../store/transaction';
import { verifyVectorIndex } from '../../store/vector-index-verify';
import type { DocEntry } from './catalog';
import { chunkIndexText, noteIndexText } from './documents';
import { checkIndexHealth } from './health-check';
import type { IndexState } from './index-state';
import { healthKey } from './load';
import type { ModelIndex } from './model-index';

export interface EmbedStage {
  model: ModelIndex;
  choice: EmbedderChoice;
  pending: DocEntry[];
}

/** What is left to embed, serving embedder first. */
export function embedPlan(state: IndexState): EmbedStage[] {
  const stages: EmbedStage[] = [];
  if (state.serving)
    stages.push({ model: state.serving, choice: state.servingChoice, pending: state.catalog.pending(state.serving.index) });
  if (state.target && state.targetChoice)
    stages.push({ model: state.target, choice: state.targetChoice, pending: state.catalog.pending(state.target.index) });
  return stages.filter((s) => s.pending.length > 0);
}

async function textsFor(state: IndexState, batch: readonly DocEntry[]): Promise<Map<string, string>> {
  const chunkIds = batch.filter((e) => e.kind === 'chunk').map((e) => e.id);
  const noteIds = batch.filter((e) => e.kind === 'note').map((e) => e.id);
  const [chunks, notes] = await Promise.all([
    state.chunks.get(chunkIds),
    noteIds.length ? withStoreTimeout(state.vault.db.notes.bulkGet(noteIds), { label: 'reading notes to embed' }) : [],
  ]);
  const texts = new Map<string, string>();
  for (const chunk of chunks) texts.set(chunk.id, chunkIndexText(chunk));
  for (const note of notes) if (note) texts.set(note.id, noteIndexText(note));
  return texts;
}

/** Embeds one batch of a stage and stores it; returns how many documents it covered. */
export async function embedBatch(state: IndexState, stage: EmbedStage, batch: readonly DocEntry[], signal?: AbortSignal): Promise<number> {
  const embedder = await state.embedderFor(stage.choice);
  const texts = await textsFor(state, batch);
  const ready = batch.filter((e) => texts.has(e.id));
  const vectors = ready.length
    ? await embedder.embed(
        ready.map((e) => texts.get(e.id)!),
        { signal },
      )
    : [];
  await state.lock.run(async () => {
    // The stage may have been dropped (a switch cancelled) or documents changed meanwhile.
    if (stage.model !== state.serving && stage.model !== state.target) return;
    const items = ready
      .map((e, i) => ({ recordId: e.id, contentHash: e.hash, vector: vectors[i]! }))
      .filter((item) => state.catalog.get(item.recordId)?.hash === item.contentHash);
    await stage.model.add(items);
  });
  state.changed();
  return batch.length;
}

/** Saves whatever changed: BM25 when dirty, each vector index when changed. */
export async function persist(state: IndexState): Promise<void> {
  if (state.readOnly) return;
  const saved = await state.lock.run(async () => {
    let any = false;
    if (state.bm25Store.isDirty) {
      await state.bm25Store.save(state.bm25);
      any = true;
    }
    for (const model of state.models()) any = (await model.save()) || any;
    state.lastSave = state.now();
    return any;
  });
  if (saved) state.deps.onSaved?.();
}

/** Saves during long work, at most every `saveEveryMs`. */
export async function persistIfDue(state: IndexState): Promise<void> {
  if (state.now() - state.lastSave >= (state.deps.saveEveryMs ?? 60_000)) await persist(state);
}

/** The target embedder takes over once its index covers every document. */
export async function promoteIfComplete(state: IndexState): Promise<boolean> {
  if (!state.target || !state.targetChoice || state.catalog.pending(state.target.index).length > 0) return false;
  // Never hand searches to an embedder that cannot embed the queries.
  await state.embedderFor(state.targetChoice);
  const promoted = await state.lock.run(async () => {
    const target = state.target;
    const choice = state.targetChoice;
    if (!target || !choice || state.catalog.pending(target.index).length > 0) return false;
    await target.save();
    const old = state.serving;
    const oldChoice = state.servingChoice;
    state.serving = target;
    state.servingChoice = choice;
    state.target = null;
    state.targetChoice = null;
    await state.vault.settings.set('index.serving', choice.kind === 'lexical' ? null : choice);
    await state.vault.settings.set('index.target', null);
    if (old && old.embedderId !== target.embedderId) {
      await old.discard();
      await state.unloadEmbedder(oldChoice);
    }
    state.health = null;
    return true;
  });
  if (promoted) {
    state.changed();
    state.deps.onSaved?.();
  }
  return promoted;
}

/**
 * Whether an embedding pass should end with a health check: none yet, another embedder, the index
 * grew or shrank by a tenth since, or a day went by (a check scans every vector once).
 */
export function healthDue(state: IndexState): boolean {
  const last = state.health;
  const model = state.serving;
  if (!model) return false;
  if (!last || last.embedderId !== model.embedderId) return true;
  const count = model.index.count;
  return Math.abs(count - last.vectors) > Math.max(10, last.vectors * 0.1) || state.now() - last.checkedAt > 86_400_000;
}

/** Measures the serving index's recall@10 (tuning or rebuilding it below target) and keeps the report. */
export async function runHealthCheck(state: IndexState): Promise<HealthReport | null> {
  const model = state.serving;
  if (!model) return null;
  const report = await state.lock.run(async () => {
    // Integrity first (label map against the vectors table), then recall.
    const integrity = await verifyVectorIndex(model.index, model.truth(), { rng: state.rng, now: state.now, sample: 32 });
    if (!integrity.ok) {
      await model.rebuildFromRows();
      state.notice(
        'index/corrupt',
        `The vector index did not match the vault (${integrity.problems.slice(0, 2).join('; ')}); it was rebuilt.`,
      );
    }
    model.verifiedAt = state.now();
    const before = model.index.params.ef;
    const result = await checkIndexHealth(model, { rng: state.rng, now: state.now });
    if (result.verdict === 'tuned' || result.verdict === 'rebuilt' || model.index.params.ef !== before) model.changed = true;
    return result;
  });
  state.health = report;
  if (!state.readOnly) {
    await state.deps.cache.blobs.put(healthKey(state.scope), report);
    await persist(state);
  }
  state.changed();
  return report;
}

export const isServing = (state: IndexState, choice: EmbedderChoice): boolean => choiceId(choice) === choiceId(state.servingChoice);
