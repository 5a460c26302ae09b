/**
 * Loading the index when a worker (or the CLI) starts: the catalog from the chunks and notes
 * tables, the saved BM25 index when it matches them (rebuilt from them otherwise), and the vector
 * indexes of the serving and target embedders (opened, caught up and verified, or rebuilt from the
 * vectors table with a notice).
 */
import type { EmbedderChoice } from '../../core/api/embedder';
import { Bm25Index } from '../../core/index/bm25';
import type { ChunkRecord, MessageRecord, NoteRecord } from '../../core/records';
import { choiceId } from '../../core/api/embedder';
import { runTx, withStoreTimeout } from '../../store/transaction';
import type { CatalogSource, DocEntry } from './catalog';
import type { DocumentsSnapshot } from './documents-snapshot';
import { conversationTextsOf } from './bm25-text';
import { chunkMentions, noteMentions } from './entity-links';
import { chunkEntry, chunkIndexText, conversationAt, isIndexedNote, noteEntry, noteIndexText, savedChunkEntry } from './documents';
import { dimsOf, type IndexParts } from './index-parts';
import { ModelIndex } from './model-index';
import { conversationMessages, messageTables } from '../../store/messages-store';

export function embedderLabel(choice: EmbedderChoice): string {
  if (choice.kind === 'lexical') return 'the lexical fallback embedder';
  return `${choice.spec.modelId} (${choice.spec.dtype})`;
}

async function indexedNotes(parts: IndexParts): Promise<NoteRecord[]> {
  const kept = await withStoreTimeout(parts.vault.db.notes.where('status').equals('kept').toArray(), { label: 'reading kept notes' });
  return kept.filter(isIndexedNote);
}

/** Visible conversations: when each was last active (catalog order) and when it was created (BM25 dates). */
async function visibleConversationDates(
  parts: IndexParts,
): Promise<{ dates: Map<string, number | null>; created: Map<string, number | null> }> {
  const rows = await withStoreTimeout(parts.vault.db.conversations.where('state').equals('visible').toArray(), {
    label: 'reading conversations',
  });
  return { dates: new Map(rows.map((c) => [c.id, conversationAt(c)])), created: new Map(rows.map((c) => [c.id, c.createdAt ?? null])) };
}

/** Conversations read per transaction while the keyword index is rebuilt from the tables. */
const REBUILD_STEP = 25;

interface StepRows {
  chunks: ChunkRecord[][];
  messages: Map<string, MessageRecord>;
}

/** The chunks of several conversations and their parent messages, in one read transaction. */
function readStep(parts: IndexParts, ids: readonly string[]): Promise<StepRows> {
  const db = parts.vault.db;
  return runTx(
    db,
    'r',
    [db.chunks, ...messageTables(db)],
    async () => {
      const chunks = await Promise.all(ids.map((id) => db.chunks.where('conversationId').equals(id).toArray()));
      // The chunks' parents, read by conversation: a range read each (rows and blocks), not a lookup per message.
      const parents = new Set(chunks.flat().map((c) => c.parentId));
      const messages = (await Promise.all(ids.map((id) => conversationMessages(db, id)))).flat().filter((m) => parents.has(m.id));
      return { chunks, messages: new Map(messages.map((m) => [m.id, m] as const)) };
    },
    { label: 'reading chunks to rebuild the keyword index' },
  );
}

/**
 * The keyword index rebuilt from the tables: conversation by conversation (a window reads its
 * neighbours), a step of REBUILD_STEP conversations per read with the next step read ahead, then the rest.
 */
async function rebuildBm25(
  parts: IndexParts,
  created: ReadonlyMap<string, number | null>,
  notes: readonly NoteRecord[],
): Promise<Bm25Index> {
  const fresh = new Bm25Index();
  const ids = [...created.keys()];
  let ahead: Promise<StepRows> | null = ids.length ? readStep(parts, ids.slice(0, REBUILD_STEP)) : null;
  for (let at = 0; at < ids.length; at += REBUILD_STEP) {
    const step = ids.slice(at, at + REBUILD_STEP);
    const rows = await ahead!;
    const next = ids.slice(at + REBUILD_STEP, at + 2 * REBUILD_STEP);
    ahead = next.length ? readStep(parts, next) : null;
    // A failure here leaves the next step's read unobserved: not an unhandled rejection.
    ahead?.catch(() => undefined);
    step.forEach((id, i) => {
      for (const [doc, text] of conversationTextsOf(rows.messages, created.get(id) ?? null, rows.chunks[i]!)) fresh.add(doc, text);
    });
  }
  for await (const page of parts.chunks.pages())
    for (const chunk of page) if (!fresh.has(chunk.id)) fresh.add(chunk.id, chunkIndexText(chunk));
  for (const note of notes) fresh.add(note.id, noteIndexText(note));
  return fresh;
}

/**
 * The chunks' catalog entries and entity graph from the saved documents (documents-snapshot.ts), when
 * they hold exactly the chunks table's ids and the saved keyword index holds them all; else why not.
 */
async function restoredChunks(
  parts: IndexParts,
  bm25: Bm25Index,
  saved: DocumentsSnapshot,
  dates: ReadonlyMap<string, number | null>,
): Promise<{ entries: DocEntry[]; why?: undefined } | { entries: null; why: string }> {
  const ids = await parts.chunks.ids();
  if (ids.length !== saved.chunks.length)
    return { entries: null, why: `the saved documents hold ${saved.chunks.length} chunks, the vault ${ids.length}` };
  const stored = new Set(ids);
  for (const chunk of saved.chunks) {
    if (!stored.has(chunk.id)) return { entries: null, why: 'the saved documents name a chunk the vault does not hold' };
    if (!bm25.has(chunk.id)) return { entries: null, why: 'the saved keyword index lacks some chunks' };
  }
  try {
    parts.graph.restore(saved.graph);
  } catch (error) {
    return { entries: null, why: error instanceof Error ? error.message : String(error) };
  }
  const entries = saved.chunks.map((c) => savedChunkEntry(c, c.conversationId ? (dates.get(c.conversationId) ?? null) : null));
  return { entries };
}

/**
 * Reads the catalog: the chunks' part from the saved documents when they match the vault (else from
 * every chunk row, linking entities again), the notes from their table. Serves the saved keyword
 * index when it holds exactly the catalog, else rebuilds it. `fromTables`: never trust the saved
 * documents (after a restore or merge rewrote the chunks table).
 */
export async function loadDocuments(parts: IndexParts, options: { fromTables?: boolean } = {}): Promise<void> {
  const saved = await parts.bm25.loadSaved();
  let bm25 = saved.index;
  let why = saved.index ? null : saved.why;
  const { dates, created } = await visibleConversationDates(parts);
  parts.graph.clear();
  let source: CatalogSource;
  let entries: DocEntry[];
  const restored =
    options.fromTables || !saved.index || !saved.documents
      ? { entries: null, why: options.fromTables ? 'asked to read the tables' : (saved.documentsWhy ?? why ?? 'no saved documents') }
      : await restoredChunks(parts, saved.index, saved.documents, dates);
  if (restored.entries) {
    entries = restored.entries;
    source = { from: 'saved' };
  } else {
    // The graph is still empty: a restore that fails leaves it so.
    entries = [];
    source = { from: 'tables', why: restored.why };
    for await (const page of parts.chunks.pages()) {
      for (const chunk of page) {
        parts.graph.set(chunk.id, chunkMentions(chunk), chunk.conversationId);
        entries.push(chunkEntry(chunk, chunk.conversationId ? (dates.get(chunk.conversationId) ?? null) : null));
        if (bm25 && !bm25.has(chunk.id)) {
          why = 'the saved keyword index lacks some chunks';
          bm25 = null;
        }
      }
    }
  }
  const notes = await indexedNotes(parts);
  for (const note of notes) {
    parts.graph.set(note.id, noteMentions(note), note.conversationId ?? null);
    entries.push(await noteEntry(note));
    if (bm25 && !bm25.has(note.id)) bm25 = null;
  }
  parts.catalog.reset(entries, entries.length === 0 ? { from: 'empty' } : source);
  const size = parts.catalog.size;
  if (bm25 && bm25.size !== size) {
    why = `the saved keyword index holds ${bm25.size} documents, the vault ${size}`;
    bm25 = null;
  }
  if (bm25) {
    await parts.bm25.replace(bm25, 'saved', { save: false });
    // Saved without its documents (an older version saved it, or they could not be used): save both now.
    if (source.from === 'tables' && !parts.readOnly && size > 0) await parts.bm25.save();
    return;
  }
  await parts.bm25.replace(await rebuildBm25(parts, created, notes), size ? 'rebuilt' : 'empty', { save: !parts.readOnly });
  if (size > 0 && why && why !== 'no saved keyword index') parts.notices.add('index/corrupt', `The keyword index was rebuilt: ${why}.`);
}

/** Opens the vector index of an embedder (catch-up, verification, or a rebuild with a notice). */
export async function openModel(parts: IndexParts, choice: EmbedderChoice, options: { fromTables?: boolean } = {}): Promise<ModelIndex> {
  const { model, report } = await ModelIndex.open(
    choiceId(choice),
    dimsOf(choice),
    {
      vectors: parts.vectors,
      manifests: parts.deps.cache.manifests,
      blobs: parts.deps.cache.blobs,
      now: parts.now,
      rng: parts.rng,
      scope: parts.scope,
      ...(parts.deps.hnsw ? { hnsw: parts.deps.hnsw } : {}),
      ...(parts.deps.vectorStructure ? { structure: parts.deps.vectorStructure } : {}),
    },
    { fullCatchUp: options.fromTables === true },
  );
  if (report.problem) {
    parts.notices.add(
      'index/corrupt',
      `The saved vector index of ${embedderLabel(choice)} could not be used (${report.problem}); it was rebuilt from ${model.index.count} stored vectors.`,
    );
  }
  if (!parts.readOnly) await model.save();
  return model;
}

/**
 * `fromTables`: read the chunks' catalog and graph from the chunks table, not the saved documents,
 * and compare every vector row's label with the saved vector indexes (after a restore or merge).
 */
export async function loadState(parts: IndexParts, options: { fromTables?: boolean } = {}): Promise<void> {
  const { serving, target } = await parts.indexes.savedChoices();
  // The documents and the vectors are read from different tables, neither waiting for the other:
  // reading them side by side keeps the database busy while each side works on what it read. The
  // two embedders' indexes open one after the other (a graph's file sync must not overlap another).
  const openModels = async () => {
    const servingModel = await openModel(parts, serving, options);
    return { servingModel, targetModel: target ? await openModel(parts, target, options) : null };
  };
  const [, { servingModel, targetModel }] = await Promise.all([loadDocuments(parts, options), openModels()]);
  parts.indexes.open({ choice: serving, model: servingModel }, target ? { choice: target, model: targetModel } : null);
  await parts.health.load();
  parts.feed.emit();
}
