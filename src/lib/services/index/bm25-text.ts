/**
 * What BM25 reads for a conversation chunk: the recipe measured on LoCoMo (src/lib/services/recall/
 * README.md): the chunk's context text (title, date, speaker, text), its date in words, and the
 * words of up to two chunks on each side (at most 60 words of each, the ones nearest the chunk,
 * without their speakers' names). In conversation the answer is often the turn after the
 * question's words; on LoCoMo dev this took hybrid recall@10 from 0.652 to 0.755. The embedder
 * reads the context text only; resource chunks and notes keep their own text (documents.ts). This
 * is the only place the recipe is written: the app's index, `engram recall` and `eval locomo` all
 * read it through the index service.
 */
import type { ChunkRecord, MessageRecord } from '../../core/records';

/** Part of the saved index's key: a saved index built with another recipe is not loaded. */
export const BM25_RECIPE = 'w2x60d';

/** How many chunks on each side join a chunk's BM25 text, and how many words of each. */
export interface NeighbourWindow {
  before: number;
  after: number;
  /**
   * At most this many words of each neighbour, the ones nearest the unit (the end of an earlier
   * chunk, the start of a later one): a 500-token answer next to a short question must not drown it.
   */
  maxWords: number;
}

export const NEIGHBOUR_WINDOW: NeighbourWindow = { before: 2, after: 2, maxWords: 60 };

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "8 May 2023" (UTC), or '' for no date: "in May 2023" in a question must match the turns of that day. */
export function dateInWords(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '';
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]!} ${d.getUTCFullYear()}`;
}

/** What a window reads of a chunk. */
export type WindowPart = Pick<ChunkRecord, 'text'> & { contextText: string };

/** The first (`from: 'start'`) or last `max` words of a text. */
function nearestWords(text: string, max: number, from: 'start' | 'end'): string {
  const words = text.split(/\s+/u).filter(Boolean);
  if (words.length <= max) return text;
  return (from === 'start' ? words.slice(0, max) : words.slice(-max)).join(' ');
}

/** A chunk's context text with the words of its neighbours (a neighbour's words, not its speaker's name). */
export function windowText(parts: readonly WindowPart[], i: number, w: NeighbourWindow = NEIGHBOUR_WINDOW): string {
  const before = parts.slice(Math.max(0, i - w.before), i).map((p) => nearestWords(p.text, w.maxWords, 'end'));
  const after = parts.slice(i + 1, i + 1 + w.after).map((p) => nearestWords(p.text, w.maxWords, 'start'));
  return [...before, parts[i]!.contextText, ...after].join('\n');
}

/** BM25 texts of one conversation's chunks, given in conversation order, dated by `dateOf` (null: undated). */
export function conversationBm25Texts(ordered: readonly ChunkRecord[], dateOf: (chunk: ChunkRecord) => number | null): Map<string, string> {
  const parts = ordered.map((c) => ({ text: c.text, contextText: c.contextText ?? c.text }));
  return new Map(
    ordered.map((chunk, i) => {
      const window = windowText(parts, i);
      const date = dateInWords(dateOf(chunk));
      return [chunk.id, date ? `${date}\n${window}` : window];
    }),
  );
}

const pieceOf = (id: string): number => Number(id.slice(id.lastIndexOf('#') + 1)) || 0;

/**
 * The BM25 texts of a conversation's stored chunks: put in conversation order (message ordinal,
 * then piece) and dated by their first message (else the conversation's date; a chunk's own
 * createdAt may be the import time of an undated transcript, which says nothing). `messages` holds
 * at least the chunks' parent messages.
 */
export function conversationTextsOf(
  messages: ReadonlyMap<string, Pick<MessageRecord, 'ordinal' | 'createdAt'>>,
  conversationCreatedAt: number | null,
  chunks: readonly ChunkRecord[],
): Map<string, string> {
  const key = (c: ChunkRecord) => messages.get(c.parentId)?.ordinal ?? Number.MAX_SAFE_INTEGER;
  const ordered = [...chunks].sort((a, b) => key(a) - key(b) || pieceOf(a.id) - pieceOf(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return conversationBm25Texts(ordered, (c) => messages.get(c.parentId)?.createdAt ?? conversationCreatedAt);
}
