/**
 * Keeping the index in step with the vault: a conversation or note is re-read and re-chunked,
 * and the difference is applied to the chunks table (with the vectors of removed or changed
 * chunks), the BM25 index, the catalog and every vector index, in that order. Running it twice
 * changes nothing the second time, so a retried job is harmless.
 */
import type { ChunkRecord } from '../../core/records';
import type { ChunkChange } from '../../store/chunks-repo';
import {
  chunkEntry,
  chunkIndexText,
  conversationChange,
  isIndexedNote,
  noteEntry,
  noteIndexText,
  readConversations,
  resourceChange,
  type ConversationRows,
} from './documents';
import { conversationTextsOf } from './bm25-text';
import { chunkMentions, noteMentions } from './entity-links';
import type { IndexParts } from './index-parts';

export interface UpdateCounts {
  added: number;
  changed: number;
  removed: number;
}

const empty = (): UpdateCounts => ({ added: 0, changed: 0, removed: 0 });

type Change = ChunkChange & { current: ChunkRecord[] };

/**
 * One document source's change (a conversation's or a resource note's chunks). `texts`: what BM25
 * reads per chunk when it is not the chunk's own context text (a conversation's neighbour windows,
 * bm25-text.ts). A window reads its neighbours, so when any chunk of the conversation changed, every
 * chunk is re-read into BM25.
 */
interface SourceChange {
  change: Change;
  at: number | null;
  texts?: ReadonlyMap<string, string>;
}

/**
 * Applies the changes of several sources (their chunks are disjoint): the chunks table in one
 * transaction, then BM25, the entity graph, every vector index and the catalog.
 */
async function applyChanges(parts: IndexParts, sources: readonly SourceChange[]): Promise<UpdateCounts> {
  const counts = empty();
  const plans = sources.map(({ change, texts }) => {
    const touched = change.put.length + change.remove.length > 0;
    const written = new Set(change.put.map((c) => c.id));
    const fresh = new Set(change.current.filter((c) => written.has(c.id) || !parts.bm25.has(c.id)).map((c) => c.id));
    const reread = change.current.filter((c) => fresh.has(c.id) || (touched && texts));
    return { touched, fresh, reread };
  });
  const write: ChunkChange = { put: [], remove: [], stale: [] };
  sources.forEach(({ change }, i) => {
    if (!plans[i]!.touched) return;
    write.put.push(...change.put);
    write.remove.push(...change.remove);
    write.stale.push(...change.stale);
  });
  if (plans.some((p) => p.touched || p.reread.length > 0)) {
    await parts.bm25.edit(async (bm25) => {
      await parts.chunks.apply(write);
      sources.forEach(({ change, texts }, i) => {
        for (const id of change.remove) bm25.remove(id);
        for (const chunk of plans[i]!.reread) bm25.add(chunk.id, texts?.get(chunk.id) ?? chunkIndexText(chunk));
      });
    });
  }
  sources.forEach(({ change, at }, i) => {
    const { fresh } = plans[i]!;
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
  });
  return counts;
}

/**
 * Re-chunks several conversations: their rows read in one transaction (or given: `rows`, read
 * ahead by a `StepReader`), their chunks written in one. The update and rebuild jobs pass a step of
 * conversations at a time.
 */
export async function reindexConversations(
  parts: IndexParts,
  conversationIds: readonly string[],
  rows?: Promise<ConversationRows[]>,
): Promise<UpdateCounts> {
  if (conversationIds.length === 0) return empty();
  const sources: SourceChange[] = [];
  for (const read of await (rows ?? readConversations(parts.vault, conversationIds))) {
    const change = await conversationChange(read, parts.sealer);
    const messages = new Map(read.messages.map((m) => [m.id, m]));
    sources.push({ change, at: change.at, texts: conversationTextsOf(messages, change.createdAt, change.current) });
  }
  return parts.lock.run(() => applyChanges(parts, sources));
}

/**
 * Reads steps of conversations one step ahead: `read(ids, next)` gives the rows of `ids` and starts
 * reading those of `next`, so the database reads a step while the worker chunks the one before.
 */
export type StepReader = (ids: readonly string[], next: readonly string[]) => Promise<ConversationRows[]>;

export function stepReader(parts: IndexParts): StepReader {
  let ahead: { key: string; rows: Promise<ConversationRows[]> } | null = null;
  return (ids, next) => {
    const key = ids.join('\n');
    const rows = ahead?.key === key ? ahead.rows : ids.length ? readConversations(parts.vault, ids) : Promise.resolve([]);
    ahead = next.length ? { key: next.join('\n'), rows: readConversations(parts.vault, next) } : null;
    // A step never reached (the job stopped) leaves its read unobserved: not an unhandled rejection.
    ahead?.rows.catch(() => undefined);
    return rows;
  };
}

/** A resource note is chunked; a kept atomic note is one document; anything else leaves the index. */
export async function reindexNote(parts: IndexParts, noteId: string): Promise<UpdateCounts> {
  const note = await parts.vault.notes.get(noteId);
  const change = await resourceChange(parts.chunks, note, noteId, parts.sealer);
  const atomic = note && isIndexedNote(note) ? await noteEntry(note) : null;
  return parts.lock.run(async () => {
    const counts = await applyChanges(parts, [{ change, at: null }]);
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
