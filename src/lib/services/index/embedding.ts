/**
 * Embedding: documents without a current vector are embedded in batches, in embedding order, for
 * the serving embedder first (new content becomes searchable) and then for the target embedder (a
 * model switch in the background). When the target covers every document it becomes the serving
 * embedder in one step and the old index is dropped: a search never sees two embedders' vectors.
 */
import type { EmbedderChoice } from '../../core/api/embedder';
import type { HealthReport } from '../../core/api/index-api';
import { withStoreTimeout } from '../../store/transaction';
import { verifyVectorIndex } from '../../store/vector-index-verify';
import type { DocEntry } from './catalog';
import { chunkIndexText, noteIndexText } from './documents';
import { checkIndexHealth } from './health-check';
import type { IndexParts } from './index-parts';
import type { ModelIndex } from './model-index';

export interface EmbedStage {
  model: ModelIndex;
  choice: EmbedderChoice;
  pending: DocEntry[];
}

/** What is left to embed, serving embedder first. */
export function embedPlan(parts: IndexParts): EmbedStage[] {
  const slots = [parts.indexes.serving, parts.indexes.target];
  return slots
    .flatMap((slot) => (slot?.model ? [{ model: slot.model, choice: slot.choice, pending: parts.catalog.pending(slot.model.index) }] : []))
    .filter((s) => s.pending.length > 0);
}

/** What the embedder reads for each document of a batch (documents gone meanwhile are left out). */
export async function textsFor(parts: IndexParts, batch: readonly DocEntry[]): Promise<Map<string, string>> {
  const chunkIds = batch.filter((e) => e.kind === 'chunk').map((e) => e.id);
  const noteIds = batch.filter((e) => e.kind === 'note').map((e) => e.id);
  const [chunks, notes] = await Promise.all([
    parts.chunks.get(chunkIds),
    noteIds.length ? withStoreTimeout(parts.vault.db.notes.bulkGet(noteIds), { label: 'reading notes to embed' }) : [],
  ]);
  const texts = new Map<string, string>();
  for (const chunk of chunks) texts.set(chunk.id, chunkIndexText(chunk));
  for (const note of notes) if (note) texts.set(note.id, noteIndexText(note));
  return texts;
}

/** Embeds one batch of a stage and stores it; returns how many documents it covered. `read`: its texts, when read ahead. */
export async function embedBatch(
  parts: IndexParts,
  stage: EmbedStage,
  batch: readonly DocEntry[],
  signal?: AbortSignal,
  read?: Promise<Map<string, string>>,
): Promise<number> {
  const embedder = await parts.embedders.get(stage.choice);
  const texts = await (read ?? textsFor(parts, batch));
  const ready = batch.filter((e) => texts.has(e.id));
  const vectors = ready.length
    ? await embedder.embed(
        ready.map((e) => texts.get(e.id)!),
        { signal },
      )
    : [];
  await parts.lock.run(async () => {
    // The stage may have been dropped (a switch cancelled) or documents changed meanwhile.
    if (!parts.indexes.models().includes(stage.model)) return;
    const items = ready
      .map((e, i) => ({ recordId: e.id, contentHash: e.hash, vector: vectors[i]! }))
      .filter((item) => parts.catalog.get(item.recordId)?.hash === item.contentHash);
    await stage.model.add(items);
  });
  parts.feed.emit();
  return batch.length;
}

/** Saves whatever changed: BM25 when dirty, each vector index when changed. */
export async function persist(parts: IndexParts): Promise<void> {
  if (parts.readOnly) return;
  const saved = await parts.lock.run(async () => {
    const started = parts.now();
    let any = await parts.bm25.saveIfDirty();
    for (const model of parts.indexes.models()) any = (await model.save()) || any;
    parts.markSaved(parts.now() - started);
    return any;
  });
  if (saved) parts.deps.onSaved?.();
}

/** Saves during long work when one is due (`IndexParts.saveDue`). */
export async function persistIfDue(parts: IndexParts): Promise<void> {
  if (parts.saveDue()) await persist(parts);
}

/** The target embedder takes over once its index covers every document. */
export async function promoteIfComplete(parts: IndexParts): Promise<boolean> {
  const complete = () => {
    const target = parts.indexes.target;
    return target?.model && parts.catalog.pending(target.model.index).length === 0 ? target : null;
  };
  const ready = complete();
  if (!ready) return false;
  // Never hand searches to an embedder that cannot embed the queries.
  await parts.embedders.get(ready.choice);
  const promoted = await parts.lock.run(async () => {
    const target = complete();
    if (!target) return false;
    await target.model!.save();
    const old = await parts.indexes.promote();
    if (old?.model && old.model.embedderId !== target.model!.embedderId) {
      await old.model.discard();
      await parts.embedders.unload(old.choice);
    }
    parts.health.forget();
    return true;
  });
  if (promoted) {
    parts.feed.emit();
    parts.deps.onSaved?.();
  }
  return promoted;
}

/** Measures the serving index's recall@10 (tuning or rebuilding it below target) and keeps the report. */
export async function runHealthCheck(parts: IndexParts): Promise<HealthReport | null> {
  const model = parts.indexes.serving.model;
  if (!model) return null;
  const report = await parts.lock.run(async () => {
    // Integrity first (label map against the vectors table), then recall.
    const integrity = await verifyVectorIndex(model.index, model.truth(), { rng: parts.rng, now: parts.now, sample: 32 });
    if (!integrity.ok) {
      await model.rebuildFromRows();
      parts.notices.add(
        'index/corrupt',
        `The vector index did not match the vault (${integrity.problems.slice(0, 2).join('; ')}); it was rebuilt.`,
      );
    }
    model.verifiedAt = parts.now();
    const before = model.index.params.ef;
    const result = await checkIndexHealth(model, { rng: parts.rng, now: parts.now });
    if (result.verdict === 'tuned' || result.verdict === 'rebuilt' || model.index.params.ef !== before) model.changed = true;
    return result;
  });
  await parts.health.record(report, { save: !parts.readOnly });
  if (!parts.readOnly) await persist(parts);
  return report;
}
