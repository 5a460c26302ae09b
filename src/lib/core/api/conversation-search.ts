/**
 * The Conversations screen's full-text search as the index worker serves it
 * (IndexApi.searchConversations): BM25 over the chunks of every visible conversation's visible
 * thread, grouped by conversation, with snippets and the offsets of the matched words. Plain data
 * both ways (it crosses postMessage as is).
 */
import type { TextRange, Snippet } from '../conversations/highlight';
import type { ConversationRecord, Role, Source } from '../records';

/** relevance: best-matching message first (search only); newest / oldest: by date; largest / smallest: by messages. */
export const CONVERSATION_SORTS = ['relevance', 'newest', 'oldest', 'largest', 'smallest'] as const;
export type ConversationSort = (typeof CONVERSATION_SORTS)[number];

export interface ConversationFilter {
  /** Only these sources (empty or absent: every source). */
  sources?: Source[];
  /** Conversation date (last update, else start) at or after this (ms); null or absent: no bound. */
  from?: number | null;
  /** ...and at or before this (ms). An undated conversation is outside any bounded range. */
  to?: number | null;
  /** Only conversations with a kept Decision note or a Decision candidate still in the Inbox. */
  hasDecisions?: boolean;
}

export interface ConversationSearchRequest {
  query: string;
  filter: ConversationFilter;
  sort: ConversationSort;
  /** Conversations returned at most (the total counts them all). */
  limit: number;
}

/** One message of the visible thread that holds the query's words. */
export interface MessageMatch {
  messageId: string;
  role: Role;
  ordinal: number;
  score: number;
  snippet: Snippet;
  /** Every matched word of the message, as offsets into its stored text. */
  ranges: TextRange[];
}

export interface ConversationHit {
  conversation: ConversationRecord;
  /** BM25 score of its best chunk. */
  score: number;
  /** Matched words of the title. */
  titleRanges: TextRange[];
  /** Matching messages, best first (at most MATCHES_SHOWN). */
  matches: MessageMatch[];
  /** Messages whose own text holds the words (0: only the title or neighbouring text matched). */
  matchCount: number;
}

export interface ConversationSearchResult {
  hits: ConversationHit[];
  /** Conversations that matched under the filter (hits holds the first `limit`). */
  total: number;
  /** Documents in the keyword index when the query ran (0: nothing indexed yet). */
  documents: number;
  /** Chunks read from the index: a match past this depth is not found (SEARCH_DEPTH). */
  depth: number;
  /** The index had more matching chunks than `depth`: `total` is a lower bound ("at least N"). */
  truncated: boolean;
}

/** What came out of one conversation (the links on its page). */
export interface ConversationLinkCounts {
  /** Candidates in the Inbox (provisional engrams). */
  candidates: number;
  /** Kept notes. */
  kept: number;
  /** Kept decisions and decision candidates. */
  decisions: number;
}
