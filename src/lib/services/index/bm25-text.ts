/**
 * What the app's BM25 index reads for a conversation chunk: the recipe measured for the recall
 * engine (workers/recall/README.md, "What a unit is"): the chunk's context text, its date in words,
 * and the words of up to two chunks on each side (at most 60 words of each, without their speakers'
 * names). In conversation the answer is often the turn after the question's words; on LoCoMo dev
 * this took hybrid recall@10 from 0.652 to 0.755. The embedder still reads the context text only.
 * Resource chunks and notes keep their own text (documentIndexText in documents.ts).
 */
import type { ChunkRecord } from '../../core/records';
import type { Vault } from '../../store/vault';
import { withStoreTimeout } from '../../store/transaction';
import { dateInWords, DEFAULT_NEIGHBOURS, windowText } from '../../../../workers/recall/units';

/** Part of the saved index's key: a saved index built with another recipe is not loaded. */
export const BM25_RECIPE = 'w2x60d';

/** BM25 texts of one conversation's chunks, given in conversation order, dated by `dateOf` (null: undated). */
export function conversationBm25Texts(ordered: readonly ChunkRecord[], dateOf: (chunk: ChunkRecord) => number | null): Map<string, string> {
  const parts = ordered.map((c) => ({ text: c.text, contextText: c.contextText ?? c.text }));
  return new Map(
    ordered.map((chunk, i) => {
      const window = windowText(parts, i, DEFAULT_NEIGHBOURS);
      const date = dateInWords(dateOf(chunk));
      return [chunk.id, date ? `${date}\n${window}` : window];
    }),
  );
}

const pieceOf = (id: string): number => Number(id.slice(id.lastIndexOf('#') + 1)) || 0;

/**
 * The BM25 texts of a conversation's stored chunks: put in conversation order (message ordinal,
 * then piece) and dated like the engine's units (the first message's time, else the conversation's;
 * a chunk's own createdAt may be the import time of an undated transcript, which says nothing).
 */
export async function conversationTexts(
  vault: Vault,
  conversationCreatedAt: number | null,
  chunks: readonly ChunkRecord[],
): Promise<Map<string, string>> {
  const messages = await withStoreTimeout(vault.db.messages.bulkGet(chunks.map((c) => c.parentId)), {
    label: 'reading message order',
  });
  const byId = new Map(messages.flatMap((m) => (m ? [[m.id, m] as const] : [])));
  const key = (c: ChunkRecord) => byId.get(c.parentId)?.ordinal ?? Number.MAX_SAFE_INTEGER;
  const ordered = [...chunks].sort((a, b) => key(a) - key(b) || pieceOf(a.id) - pieceOf(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return conversationBm25Texts(ordered, (c) => byId.get(c.parentId)?.createdAt ?? conversationCreatedAt);
}
