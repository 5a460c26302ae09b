/**
 * Keeping the index in step with the vault: a conversation or note is re-read and re-chunked,
 * and the difference is applied to the chunks table (with the vectors of removed or changed
 * chunks), the BM25 index, the catalog and every vector index, in that order. Running it twice
 * changes nothing the second time, so a retried job is harmless.
 */
import type { ChunkRecord } from '../../core/records';
import type { ChunkChange } from '../../store/chunks-repo';
import { chunkEntry, chunkIndexText, conversationChange, isIndexedNote, noteEntry, noteIndexText, resourceChange } from './documents';
import { conversationTexts } from './bm25-text';
import type { IndexState } from './index-state';

export interface UpdateCounts {
  added: number;
  changed: number;
  removed: number;
}

const empty = (): UpdateCounts => ({ added: 0, changed: 0, removed: 0 });

/**
 * `texts`: what BM25 reads per chunk when it is not the chunk's own context text (a conversation's
 * neighbour windows, bm25-text.ts). A window reads its neighbours, so when any chunk of the
 * conversation changed, every chunk is re-read into BM25.
 */
async function applyChange(
  state: IndexState,
  change: ChunkChange & { current: ChunkRecord[] },
  at: number | null,
  texts?: ReadonlyMap<string, string>,
): Promise<UpdateCounts> {
  const counts = empty();
  const touched = change.put.length + change.remove.length > 0;
  if (touched) {
    await state.bm25Store.markDirty();
    await state.chunks.apply(change);
  }
  const gone = [...change.remove, ...change.stale];
  for (const model of state.models()) model.remove(gone);
  for (const id of change.remove) {
    state.bm25.remove(id);
    state.catalog.delete(id);
    counts.removed++;
  }
  const written = new Set(change.put.map((c) => c.id));
  for (const chunk of change.current) {
    const entry = chunkEntry(chunk, at);
    const known = state.catalog.get(chunk.id);
    const fresh = written.has(chunk.id) || !state.bm25.has(chunk.id);
    if (fresh || (touched && texts)) {
      if (!touched) await state.bm25Store.markDirty();
      state.bm25.add(chunk.id, texts?.get(chunk.id) ?? chunkIndexText(chunk));
      if (fresh && known) counts.changed++;
      else if (fresh) counts.added++;
    }
    if (!known || known.hash !== entry.hash || known.at !== entry.at) state.catalog.set(entry);
  }
  return counts;
}

export async function reindexConversation(state: IndexState, conversationId: string): Promise<UpdateCounts> {
  const change = await conversationChange(state.vault, state.chunks, conversationId, state.sealer);
  const texts = await conversationTexts(state.vault, change.createdAt, change.current);
  return state.lock.run(() => applyChange(state, change, change.at, texts));
}

/** A resource note is chunked; a kept atomic note is one document; anything else leaves the index. */
export async function reindexNote(state: IndexState, noteId: string): Promise<UpdateCounts> {
  const note = await state.vault.notes.get(noteId);
  const change = await resourceChange(state.chunks, note, noteId, state.sealer);
  const atomic = note && isIndexedNote(note) ? await noteEntry(note) : null;
  return state.lock.run(async () => {
    const counts = await applyChange(state, change, null);
    const known = state.catalog.get(noteId);
    if (atomic && (known?.hash !== atomic.hash || !state.bm25.has(noteId))) {
      await state.bm25Store.markDirty();
      state.bm25.add(noteId, noteIndexText(note!));
      state.catalog.set(atomic);
      if (known) counts.changed++;
      else counts.added++;
    } else if (!atomic && known?.kind === 'note') {
      await state.bm25Store.markDirty();
      state.bm25.remove(noteId);
      state.catalog.delete(noteId);
      for (const model of state.models()) model.remove([noteId]);
      await state.vectors.deleteRecords([noteId]);
      counts.removed++;
    }
    return counts;
  });
}

export function addCounts(a: UpdateCounts, b: UpdateCounts): UpdateCounts {
  return { added: a.added + b.added, changed: a.changed + b.changed, removed: a.removed + b.removed };
}
