/**
 * Loading the index when a worker (or the CLI) starts: the catalog from the chunks and notes
 * tables, the saved BM25 index when it matches them (rebuilt from them otherwise), and the vector
 * indexes of the serving and target embedders (opened, caught up and verified, or rebuilt from the
 * vectors table with a notice).
 */
import { choiceId, type EmbedderChoice } from '../../core/api/embedder';
import type { HealthReport } from '../../core/api/index-api';
import { Bm25Index } from '../../core/index/bm25';
import type { NoteRecord } from '../../core/records';
import { withStoreTimeout } from '../../store/transaction';
import { Catalog } from './catalog';
import { conversationTexts } from './bm25-text';
import { chunkEntry, chunkIndexText, conversationAt, isIndexedNote, noteEntry, noteIndexText } from './documents';
import { dimsOf, type IndexState, LEXICAL } from './index-state';
import { ModelIndex } from './model-index';

export const healthKey = (scope: string): string => `health:${scope}`;

export function embedderLabel(choice: EmbedderChoice): string {
  if (choice.kind === 'lexical') return 'the lexical fallback embedder';
  return `${choice.spec.modelId} (${choice.spec.dtype})`;
}

async function indexedNotes(state: IndexState): Promise<NoteRecord[]> {
  const kept = await withStoreTimeout(state.vault.db.notes.where('status').equals('kept').toArray(), { label: 'reading kept notes' });
  return kept.filter(isIndexedNote);
}

/** Visible conversations: when each was last active (catalog order) and when it was created (BM25 dates). */
async function visibleConversationDates(
  state: IndexState,
): Promise<{ dates: Map<string, number | null>; created: Map<string, number | null> }> {
  const rows = await withStoreTimeout(state.vault.db.conversations.where('state').equals('visible').toArray(), {
    label: 'reading conversations',
  });
  return { dates: new Map(rows.map((c) => [c.id, conversationAt(c)])), created: new Map(rows.map((c) => [c.id, c.createdAt ?? null])) };
}

/** Builds the catalog; returns the BM25 index (the saved one when it holds exactly the catalog). */
export async function loadDocuments(state: IndexState): Promise<void> {
  const saved = await state.bm25Store.load();
  let bm25 = saved.index;
  let why = saved.index ? null : saved.why;
  const { dates, created } = await visibleConversationDates(state);
  const catalog = new Catalog();
  for await (const page of state.chunks.pages()) {
    for (const chunk of page) {
      catalog.set(chunkEntry(chunk, chunk.conversationId ? (dates.get(chunk.conversationId) ?? null) : null));
      if (bm25 && !bm25.has(chunk.id)) {
        why = 'the saved keyword index lacks some chunks';
        bm25 = null;
      }
    }
  }
  const notes = await indexedNotes(state);
  for (const note of notes) {
    catalog.set(await noteEntry(note));
    if (bm25 && !bm25.has(note.id)) bm25 = null;
  }
  if (bm25 && bm25.size !== catalog.size) {
    why = `the saved keyword index holds ${bm25.size} documents, the vault ${catalog.size}`;
    bm25 = null;
  }
  state.catalog = catalog;
  if (bm25) {
    state.bm25 = bm25;
    state.bm25Info = { loadedFrom: 'saved', verifiedAt: state.now() };
    return;
  }
  const fresh = new Bm25Index();
  // Conversation by conversation (a window reads its neighbours), then whatever else the catalog holds.
  for (const [conversationId, createdAt] of created) {
    const texts = await conversationTexts(state.vault, createdAt, await state.chunks.forConversation(conversationId));
    for (const [id, text] of texts) fresh.add(id, text);
  }
  for await (const page of state.chunks.pages())
    for (const chunk of page) if (!fresh.has(chunk.id)) fresh.add(chunk.id, chunkIndexText(chunk));
  for (const note of notes) fresh.add(note.id, noteIndexText(note));
  state.bm25 = fresh;
  state.bm25Info = { loadedFrom: catalog.size ? 'rebuilt' : 'empty', verifiedAt: state.now() };
  if (catalog.size > 0 && why && why !== 'no saved keyword index') state.notice('index/corrupt', `The keyword index was rebuilt: ${why}.`);
  if (!state.readOnly) await state.bm25Store.save(fresh);
}

/** Opens the vector index of an embedder (catch-up, verification, or a rebuild with a notice). */
export async function openModel(state: IndexState, choice: EmbedderChoice): Promise<ModelIndex> {
  const { model, report } = await ModelIndex.open(choiceId(choice), dimsOf(choice), {
    vectors: state.vectors,
    manifests: state.deps.cache.manifests,
    now: state.now,
    rng: state.rng,
    scope: state.scope,
  });
  if (report.problem) {
    state.notice(
      'index/corrupt',
      `The saved vector index of ${embedderLabel(choice)} could not be used (${report.problem}); it was rebuilt from ${model.index.count} stored vectors.`,
    );
  }
  if (!state.readOnly) await model.save();
  return model;
}

export async function loadState(state: IndexState): Promise<void> {
  const settings = state.vault.settings;
  state.servingChoice = (await settings.get('index.serving')) ?? LEXICAL;
  state.targetChoice = await settings.get('index.target');
  if (state.targetChoice && choiceId(state.targetChoice) === choiceId(state.servingChoice)) state.targetChoice = null;
  await loadDocuments(state);
  state.serving = await openModel(state, state.servingChoice);
  state.target = state.targetChoice ? await openModel(state, state.targetChoice) : null;
  state.health = (await state.deps.cache.blobs.get<HealthReport>(healthKey(state.scope))) ?? null;
  state.changed();
}
