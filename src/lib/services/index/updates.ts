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
import { chunkMentions, noteMentions } from './entity-links';
import type { IndexParts } from './index-parts';

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
  parts: IndexParts,
  change: ChunkChange & { current: ChunkRecord[] },
  at: number | null,
  texts?: ReadonlyMap<string, string>,
): Promise<UpdateCounts> {
  const counts = empty();
  const touched = change.put.length + change.remove.length > 0;
  const written = new Set(change.put.map((c) => c.id));
  const fresh = new Set(change.current.filter((c) => written.has(c.id) || !parts.bm25.has(c.id)).map((c) => c.id));
  const reread = change.current.filter((c) => fresh.has(c.id) || (touched && texts));
  if (touched || reread.length > 0) {
    await parts.bm25.edit(async (bm25) => {
      if (touched) await parts.chunks.apply(change);
      for (const id of change.remove) bm25.remove(id);
      for (const chunk of reread) bm25.add(chunk.id, texts?.get(chunk.id) ?? chunkIndexText(chunk));
    });
  }
  for (const id of change.remove) parts.graph.remove(id);
  for (const chunk of change.current) if (fresh.has(chunk.id)) parts.graph.set(chunk.id, chunkMentions(chunk), chunk.conversationId);
  const gone = [...change.remove, ...change.stale];
  for (const model of parts.indexes.models()) model.remove(gone);
  for (const id of change.remove) {
    parts.catalog.delete(id);
    counts.removed++;
  }
  for (const chunk of change.current) {
    const entry = chunkEntry(chunk, at);
    const known = parts.catalog.get(chunk.id);
    if (fresh.has(chunk.id)) {
      if (known) counts.changed++;
      else counts.added++;
    }
    if (!known || known.hash !== entry.hash || known.at !== entry.at) parts.catalog.set(entry);
  }
  return counts;
}

export async function reindexConversation(parts: IndexParts, conversationId: string): Promise<UpdateCounts> {
  const change = await conversationChange(parts.vault, parts.chunks, conversationId, parts.sealer);
  const texts = await conversationTexts(parts.vault, change.createdAt, change.current);
  return parts.lock.run(() => applyChange(parts, change, change.at, texts));
}

/** A resource note is chunked; a kept atomic note is one document; anything else leaves the index. */
export async function reindexNote(parts: IndexParts, noteId: string): Promise<UpdateCounts> {
  const note = await parts.vault.notes.get(noteId);
  const change = await resourceChange(parts.chunks, note, noteId, parts.sealer);
  const atomic = note && isIndexedNote(note) ? await noteEntry(note) : null;
  return parts.lock.run(async () => {
    const counts = await applyChange(parts, change, null);
    const known = parts.catalog.get(noteId);
    if (atomic && (known?.hash !== atomic.hash || !parts.bm25.has(noteId))) {
      await parts.bm25.edit((bm25) => bm25.add(noteId, noteIndexText(note!)));
      parts.graph.set(noteId, noteMentions(note!), note!.conversationId ?? null);
      parts.catalog.set(atomic);
      if (known) counts.changed++;
      else counts.added++;
    } else if (!atomic && known?.kind === 'note') {
      await parts.bm25.edit((bm25) => {
        bm25.remove(noteId);
      });
      parts.catalog.delete(noteId);
      parts.graph.remove(noteId);
      for (const model of parts.indexes.models()) model.remove([noteId]);
      await parts.vectors.deleteRecords([noteId]);
      counts.removed++;
    }
    return counts;
  });
}

export function addCounts(a: UpdateCounts, b: UpdateCounts): UpdateCounts {
  return { added: a.added + b.added, changed: a.changed + b.changed, removed: a.removed + b.removed };
}
