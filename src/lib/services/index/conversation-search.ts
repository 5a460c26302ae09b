/**
 * Full-text search over conversations (IndexApi.searchConversations): the keyword index the read
 * path uses (BM25 over the chunks of every visible conversation's visible thread, bm25-text.ts),
 * read deep, then grouped by conversation with snippets and match offsets
 * (core/conversations/browse.ts). Other branches and hidden parts are not indexed, so they are
 * not searched. Kept notes are documents of the same index; their hits are left out here.
 *
 * The filters (source, dates, "has decisions") decide which chunks the index may return before it
 * ranks them, so SEARCH_DEPTH counts passages of conversations that pass: a filtered match never
 * falls below passages of conversations the filter leaves out.
 */
import type { ConversationFilter, ConversationSearchRequest, ConversationSearchResult } from '../../core/api/conversation-search';
import { matchesFilter, rankConversations, type ChunkHit } from '../../core/conversations/browse';
import { queryTerms } from '../../core/conversations/highlight';
import type { ConversationRecord } from '../../core/records';
import type { LexicalHit } from '../../core/recall/ports';
import { chunkIdsOf, decisionConversationIds } from '../../store/conversation-facets';
import { withStoreTimeout } from '../../store/transaction';
import type { Vault } from '../../store/vault';
import { getMessages } from '../../store/messages-store';

/**
 * Chunks read from the index per search (after the filter): a conversation matching only below this
 * rank is not found, and the result says `truncated` (the screen shows "at least N").
 */
export const SEARCH_DEPTH = 2_000;

export interface KeywordIndex {
  /** The best `k` documents `accept` lets through (all documents without it). */
  search(query: string, k: number, accept?: (id: string) => boolean): LexicalHit[];
  readonly size: number;
}

const isFiltered = (f: ConversationFilter) => (f.sources?.length ?? 0) > 0 || f.from != null || f.to != null || Boolean(f.hasDecisions);

/**
 * The filter as a predicate on chunk ids, or null when it lets nothing through. Reads the chunk
 * keys of whichever side is smaller (by messages): those the filter keeps, or those it leaves out
 * (kept notes then pass it; they are dropped with the other non-message hits).
 */
async function chunkFilter(
  vault: Vault,
  filter: ConversationFilter,
  decided: ReadonlySet<string>,
): Promise<((id: string) => boolean) | null> {
  const all = await withStoreTimeout(vault.db.conversations.toArray(), { label: 'reading conversations for the filters' });
  const passes = (c: ConversationRecord) => c.state === 'visible' && matchesFilter(c, filter, decided);
  const kept = all.filter(passes);
  const left = all.filter((c) => !passes(c));
  if (kept.length === 0) return null;
  const messages = (rows: ConversationRecord[]) => rows.reduce((n, c) => n + c.messageCount, 0);
  if (messages(kept) <= messages(left)) {
    const ids = await chunkIdsOf(
      vault.db,
      kept.map((c) => c.id),
    );
    return (id) => ids.has(id);
  }
  const ids = await chunkIdsOf(
    vault.db,
    left.map((c) => c.id),
  );
  return (id) => !ids.has(id);
}

export async function searchConversations(
  vault: Vault,
  index: KeywordIndex,
  request: ConversationSearchRequest,
): Promise<ConversationSearchResult> {
  const query = request.query.trim();
  const empty = { hits: [], total: 0, documents: index.size, depth: SEARCH_DEPTH, truncated: false };
  const terms = queryTerms(query);
  if (terms.size === 0) return empty;
  const decided = request.filter.hasDecisions ? await decisionConversationIds(vault.db) : new Set<string>();
  const accept = isFiltered(request.filter) ? await chunkFilter(vault, request.filter, decided) : undefined;
  if (accept === null) return empty;
  const found = index.search(query, SEARCH_DEPTH, accept);
  if (found.length === 0) return empty;
  const chunks = await withStoreTimeout(vault.db.chunks.bulkGet(found.map((h) => h.id)), { label: 'reading matched chunks' });
  const hits: ChunkHit[] = [];
  found.forEach((hit, i) => {
    const chunk = chunks[i];
    if (chunk?.parentType === 'message' && chunk.conversationId)
      hits.push({ conversationId: chunk.conversationId, messageId: chunk.parentId, score: hit.score });
  });
  const conversationIds = [...new Set(hits.map((h) => h.conversationId))];
  const [conversations, messages] = await Promise.all([
    withStoreTimeout(vault.db.conversations.bulkGet(conversationIds), { label: 'reading matched conversations' }),
    withStoreTimeout(getMessages(vault.db, [...new Set(hits.map((h) => h.messageId))]), { label: 'reading matched messages' }),
  ]);
  const ranked = rankConversations({
    hits,
    conversations: new Map(conversations.flatMap((c) => (c ? [[c.id, c] as const] : []))),
    messages: new Map(messages.flatMap((m) => (m && m.state === 'visible' ? [[m.id, m] as const] : []))),
    terms,
    filter: request.filter,
    decided,
    sort: request.sort,
    limit: Math.max(1, Math.min(request.limit, 500)),
  });
  // A full page from the index: more passages may match below it, so `total` is a lower bound.
  return { ...ranked, documents: index.size, depth: SEARCH_DEPTH, truncated: found.length >= SEARCH_DEPTH };
}
