/**
 * The Conversations screen's filters and sorts, and the grouping of keyword hits into
 * conversations: pure functions the index worker's search and the browse view share.
 */
import type { ConversationFilter, ConversationHit, ConversationSort, MessageMatch } from '../api/conversation-search';
import type { ConversationRecord, Role } from '../records';
import { matchRanges, snippetOf } from './highlight';

/** Matching messages listed under a hit (matchCount counts them all). */
export const MATCHES_SHOWN = 3;

/** What the screen shows as a conversation's date and what the date filter and sort read. */
export const conversationDate = (c: Pick<ConversationRecord, 'updatedAt' | 'createdAt'>): number | null =>
  c.updatedAt ?? c.createdAt ?? null;

export function matchesFilter(c: ConversationRecord, filter: ConversationFilter, decided: ReadonlySet<string>): boolean {
  if (filter.sources && filter.sources.length > 0 && !filter.sources.includes(c.source)) return false;
  const bounded = (filter.from ?? null) !== null || (filter.to ?? null) !== null;
  if (bounded) {
    const at = conversationDate(c);
    if (at === null) return false;
    if (filter.from != null && at < filter.from) return false;
    if (filter.to != null && at > filter.to) return false;
  }
  return !filter.hasDecisions || decided.has(c.id);
}

const byTitle = (a: ConversationRecord, b: ConversationRecord) =>
  a.title.localeCompare(b.title) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Orders rows by `sort`; undated conversations go last either way; ties by title. Relevance needs a score. */
export function sortRows<T extends { conversation: ConversationRecord; score?: number }>(rows: readonly T[], sort: ConversationSort): T[] {
  const date = (r: T) => conversationDate(r.conversation);
  const compare = (a: T, b: T): number => {
    switch (sort) {
      case 'relevance':
        return (b.score ?? 0) - (a.score ?? 0);
      case 'newest':
      case 'oldest': {
        const [x, y] = [date(a), date(b)];
        if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
        return sort === 'newest' ? y - x : x - y;
      }
      case 'largest':
        return b.conversation.messageCount - a.conversation.messageCount;
      case 'smallest':
        return a.conversation.messageCount - b.conversation.messageCount;
    }
  };
  return [...rows].sort((a, b) => compare(a, b) || byTitle(a.conversation, b.conversation));
}

/** A date input's value (yyyy-mm-dd) as the start or the end of that day, in the time zone this runs in (the person's); null when empty or invalid. */
export function dayBound(value: string, edge: 'start' | 'end'): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(value);
  if (!m) return null;
  const day = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(day.getTime())) return null;
  if (edge === 'end') day.setHours(23, 59, 59, 999);
  return day.getTime();
}

/** One keyword hit on a chunk of a message. */
export interface ChunkHit {
  conversationId: string;
  messageId: string;
  score: number;
}

export interface RankInput {
  hits: readonly ChunkHit[];
  conversations: ReadonlyMap<string, ConversationRecord>;
  messages: ReadonlyMap<string, { text: string; role: Role; ordinal: number }>;
  terms: ReadonlySet<string>;
  filter: ConversationFilter;
  decided: ReadonlySet<string>;
  sort: ConversationSort;
  limit: number;
}

/**
 * Keyword hits grouped by conversation: a conversation scores as its best chunk, a message as its
 * best chunk; each matching message gets its snippet and the offsets of the matched words. A chunk
 * can match on its neighbours' words or its conversation's title (bm25-text.ts): a message whose own
 * text holds none of the words is counted but not listed.
 */
export function rankConversations(input: RankInput): { hits: ConversationHit[]; total: number } {
  const groups = new Map<string, Map<string, number>>();
  for (const hit of input.hits) {
    const conversation = input.conversations.get(hit.conversationId);
    if (!conversation || conversation.state !== 'visible' || !matchesFilter(conversation, input.filter, input.decided)) continue;
    const messages = groups.get(hit.conversationId) ?? new Map<string, number>();
    messages.set(hit.messageId, Math.max(messages.get(hit.messageId) ?? 0, hit.score));
    groups.set(hit.conversationId, messages);
  }
  const rows = [...groups].map(([id, scores]) => {
    const conversation = input.conversations.get(id)!;
    const matches: MessageMatch[] = [];
    for (const [messageId, score] of scores) {
      const message = input.messages.get(messageId);
      if (!message) continue;
      const ranges = matchRanges(message.text, input.terms);
      if (ranges.length === 0) continue;
      matches.push({ messageId, role: message.role, ordinal: message.ordinal, score, ranges, snippet: snippetOf(message.text, ranges) });
    }
    matches.sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
    return {
      conversation,
      score: Math.max(...scores.values()),
      titleRanges: matchRanges(conversation.title, input.terms),
      matches: matches.slice(0, MATCHES_SHOWN),
      matchCount: matches.length,
    } satisfies ConversationHit;
  });
  return { hits: sortRows(rows, input.sort).slice(0, input.limit), total: rows.length };
}
