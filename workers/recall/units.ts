/**
 * Retrieval units of a conversation: the product's chunks (`chunkConversation`: one unit per
 * message, short turns merged, long ones split on their structure), each with the record recall
 * returns and the text the indexes read. The returned text is the chunk's own; the index text is
 * its context (title, date, speaker) plus, when asked, the text of its neighbouring chunks, so a
 * turn that answers "yes, the one from last week" is still found by the words of the question it
 * answers. The neighbours are read, never returned: a package quotes only the chunk itself.
 */
import { chunkConversation, type ChunkConversation, type ChunkMessage } from '../../src/lib/core/chunk/conversation-chunker';
import type { ChunkDraft } from '../../src/lib/core/chunk/types';
import type { CandidateRecord } from '../../src/lib/core/recall/ports';
import type { Tier } from '../../src/lib/core/records';
import { hashBasis } from '../../src/lib/core/text/normalize';

/** One retrievable unit: what recall returns (`record`) and what BM25 and the embedder read. */
export interface IndexUnit {
  record: CandidateRecord;
  /** The lexical index reads this. */
  indexText: string;
  /** The embedder reads this (the chunk's context text, without neighbours unless asked). */
  embedText: string;
}

export interface NeighbourOptions {
  /** Chunks before the unit whose text joins its index text (same conversation). */
  before: number;
  /** Chunks after the unit whose text joins its index text. */
  after: number;
  /** Whether the embedder reads the neighbours too (else only the chunk's own context text). */
  embed: boolean;
  /** How many times the chunk's own words count in its index text (default 1, as a neighbour's). */
  selfWeight?: number;
  /** Neighbours bring their speaker names too (default: only their words). */
  neighbourSpeakers?: boolean;
  /**
   * At most this many words of each neighbour, the ones nearest the unit (the end of an earlier
   * chunk, the start of a later one): a 500-token answer next to a short question must not drown
   * it. Default: no limit.
   */
  maxNeighbourWords?: number;
}

/**
 * Two chunks on each side, their words only (not their speakers' names), for BM25 only; the
 * measurements are in workers/recall/README.md. A neighbour's name says who spoke next to the
 * turn, not who the turn is about; the lexical embedder only blurs when it reads the window.
 */
export const DEFAULT_NEIGHBOURS: NeighbourOptions = { before: 2, after: 2, embed: false, maxNeighbourWords: 60 };
export const NO_NEIGHBOURS: NeighbourOptions = { before: 0, after: 0, embed: false };

export interface UnitOptions {
  tier?: Tier;
  /** Default DEFAULT_NEIGHBOURS. */
  neighbours?: NeighbourOptions;
  /**
   * The unit's date in words ("8 May 2023") joins its index text, so "in May 2023" or "on 13
   * October" in a question matches the turns of that day (the chunk's ISO date does not). Default true.
   */
  dateWords?: boolean;
}

/** What the engine indexes by default (the product's recipe). */
export const DEFAULT_UNIT_OPTIONS: Readonly<Required<Omit<UnitOptions, 'tier'>>> = { neighbours: DEFAULT_NEIGHBOURS, dateWords: true };

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "8 May 2023" (UTC), or '' for no date. */
export function dateInWords(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '';
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]!} ${d.getUTCFullYear()}`;
}

/** What a window reads of a chunk: a draft here, a stored ChunkRecord in the index worker. */
export type WindowPart = Pick<ChunkDraft, 'text' | 'contextText'>;

/** The lines a neighbour contributes: its speaker lines, without the title and date header. */
function neighbourLines(draft: WindowPart): string {
  const lines = draft.contextText.split('\n');
  // contextText = header line (title — date), then heading path / speaker lines (context-text.ts).
  return lines.slice(1).join('\n');
}

/** The first (`from: 'start'`) or last `max` words of a text. */
function nearestWords(text: string, max: number | undefined, from: 'start' | 'end'): string {
  if (max === undefined) return text;
  const words = text.split(/\s+/u).filter(Boolean);
  if (words.length <= max) return text;
  return (from === 'start' ? words.slice(0, max) : words.slice(-max)).join(' ');
}

/** A unit's context text with the words of its neighbours (what BM25 reads). */
export function windowText(drafts: readonly WindowPart[], i: number, n: NeighbourOptions): string {
  const lines = n.neighbourSpeakers ? neighbourLines : (d: WindowPart) => d.text;
  const before = drafts.slice(Math.max(0, i - n.before), i).map((d) => nearestWords(lines(d), n.maxNeighbourWords, 'end'));
  const after = drafts.slice(i + 1, i + 1 + n.after).map((d) => nearestWords(lines(d), n.maxNeighbourWords, 'start'));
  const self = Array.from({ length: Math.max(0, (n.selfWeight ?? 1) - 1) }, () => drafts[i]!.text);
  return [...before, drafts[i]!.contextText, ...self, ...after].join('\n');
}

export function draftRecord(
  conversation: ChunkConversation,
  draft: ChunkDraft,
  dateOf: (messageId: string) => number | null,
  tier: Tier,
): CandidateRecord {
  const date = dateOf(draft.parentId) ?? conversation.createdAt;
  return {
    id: draft.id,
    kind: 'chunk',
    text: draft.text,
    tier,
    createdAt: date ?? 0,
    accessCount: 0,
    lastAccessedAt: null,
    conversationId: conversation.id,
    sourceTitle: conversation.title,
    date,
    messageIds: [...draft.messageIds],
    contentHash: hashBasis(draft.text),
    headingPath: [...draft.headingPath],
    tokenCount: draft.tokenCount,
    pinned: false,
  };
}

/** The units of one conversation, in order. */
export function conversationUnits(
  conversation: ChunkConversation,
  messages: readonly ChunkMessage[],
  options: UnitOptions = {},
): IndexUnit[] {
  const n = options.neighbours ?? DEFAULT_NEIGHBOURS;
  const drafts = chunkConversation(conversation, messages);
  const dates = new Map(messages.map((m) => [m.id, m.createdAt]));
  return drafts.map((draft, i) => {
    const window = n.before > 0 || n.after > 0 ? windowText(drafts, i, n) : draft.contextText;
    const record = draftRecord(conversation, draft, (id) => dates.get(id) ?? null, options.tier ?? 'chat');
    const date = options.dateWords !== false ? dateInWords(record.date) : '';
    return {
      record,
      indexText: date ? `${date}\n${window}` : window,
      embedText: n.embed ? window : draft.contextText,
    };
  });
}
