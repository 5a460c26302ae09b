/**
 * Full-text search over conversations (IndexApi.searchConversations): the keyword index the read
 * path uses (BM25 over the chunks of every visible conversation's visible thread, bm25-text.ts),
 * read deep, then grouped by conversation with snippets and match offsets
 * (core/conversations/browse.ts). Other branches and hidden parts are not indexed, so they are
 * not searched. Kept notes are documents of the same index; their hits are left out here.
 */
import type { ConversationSearchRequest, ConversationSearchResult } from '../../core/api/conversation-search';
import { rankConversations, type ChunkHit } from '../../core/conversations/browse';
import { queryTerms } from '../../core/conversations/highlight';
import type { LexicalHit } from '../../core/recall/ports';
import { decisionConversationIds } from '../../store/conversation-facets';
import { withStoreTimeout } from '../../store/transaction';
import type { Vault } from '../../store/vault';

/** Chunks read from the index per search: a conversation matching only below this rank is not found. */
export const SEARCH_DEPTH = 2_000;

export interface KeywordIndex {
  search(query: string, k: number): LexicalHit[];
  readonly size: number;
}

export async function searchConversations(
  vault: Vault,
  index: KeywordIndex,
  request: ConversationSearchRequest,
): Promise<ConversationSearchResult> {
  const query = request.query.trim();
  const empty = { hits: [], total: 0, documents: index.size, depth: SEARCH_DEPTH };
  const terms = queryTerms(query);
  if (terms.size === 0) return empty;
  const found = index.search(query, SEARCH_DEPTH);
  if (found.length === 0) return empty;
  const chunks = await withStoreTimeout(vault.db.chunks.bulkGet(found.map((h) => h.id)), { label: 'reading matched chunks' });
  const hits: ChunkHit[] = [];
  found.forEach((hit, i) => {
    const chunk = chunks[i];
    if (chunk?.parentType === 'message' && chunk.conversationId)
      hits.push({ conversationId: chunk.conversationId, messageId: chunk.parentId, score: hit.score });
  });
  const conversationIds = [...new Set(hits.map((h) => h.conversationId))];
  const [conversations, messages, decided] = await Promise.all([
    withStoreTimeout(vault.db.conversations.bulkGet(conversationIds), { label: 'reading matched conversations' }),
    withStoreTimeout(vault.db.messages.bulkGet([...new Set(hits.map((h) => h.messageId))]), { label: 'reading matched messages' }),
    request.filter.hasDecisions ? decisionConversationIds(vault.db) : Promise.resolve(new Set<string>()),
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
  return { ...ranked, documents: index.size, depth: SEARCH_DEPTH };
}
