import type { ChunkParent } from '../records';

/** Why a chunk deserves a second look (DESIGN: "a level with more than four bullets, or no governing idea, is flagged"). */
export type ChunkFlag = 'too-many-bullets' | 'no-governing-idea' | 'oversized';

export interface ChunkOptions {
  /** A message longer than this (tokens) is split on its headings, then between sentences. */
  maxTokens: number;
  /** A whole message shorter than this (tokens) is merged with a neighbour in its conversation. */
  minTokens: number;
  /** More bullets than this in one level flags it. */
  maxBullets: number;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { maxTokens: 512, minTokens: 8, maxBullets: 4 };

/** The part [start, end) of one source text (a message or a resource) that a chunk covers. */
export interface SourceSpan {
  sourceId: string;
  start: number;
  end: number;
}

/** A retrieval unit before it is stored: ChunkRecord fields plus what embedding and tests need. */
export interface ChunkDraft {
  /** Deterministic: `<parentId>#<n>`. */
  id: string;
  parentType: ChunkParent;
  parentId: string;
  conversationId: string | null;
  /** Messages (source turns) the chunk covers, in order. Empty for a resource. */
  messageIds: string[];
  /** Each covered message's speaker, or its role when it has none: once each, in message order. */
  speakers: string[];
  /** Spans of the sources covered; for one source they tile it exactly, in order. */
  spans: SourceSpan[];
  /** The raw text (what a context package quotes). */
  text: string;
  /** Title, date, heading path and speakers around the text: what the embedder and BM25 read. */
  contextText: string;
  headingPath: string[];
  /** Tokens of `text`, counted after structural chunking, for budgets. */
  tokenCount: number;
  flags: ChunkFlag[];
}

/** A piece of one source text, produced by the structural splitter. */
export interface Piece {
  start: number;
  end: number;
  headingPath: string[];
  /** True when the piece is the whole source text. */
  whole: boolean;
  oversized: boolean;
}
