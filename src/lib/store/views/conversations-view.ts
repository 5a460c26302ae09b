import type { ConversationFilter, ConversationSort } from '../../core/api/conversation-search';
import { matchesFilter, sortRows } from '../../core/conversations/browse';
import type { ConversationRecord, Source } from '../../core/records';
import { decisionConversationIds } from '../conversation-facets';
import { withStoreTimeout } from '../transaction';
import type { Vault } from '../vault';

export interface ConversationBrowse {
  /** The first `limit` conversations under the filter, in the chosen order. */
  rows: ConversationRecord[];
  /** How many match the filter. */
  total: number;
  /** How many visible conversations the vault holds. */
  all: number;
  /** The sources present, for the source filter. */
  sources: Source[];
}

/** Visible conversations under the Conversations screen's filter and sort (relevance, with no query, reads as newest). */
export async function readConversationBrowse(
  vault: Vault,
  filter: ConversationFilter,
  sort: ConversationSort,
  limit: number,
): Promise<ConversationBrowse> {
  // Reads every conversation on each liveQuery tick: fine at thousands; an index per filter if it ever is not.
  const [rows, decided] = await Promise.all([
    withStoreTimeout(vault.db.conversations.where('state').equals('visible').toArray(), { label: 'listing conversations' }),
    filter.hasDecisions ? decisionConversationIds(vault.db) : Promise.resolve(new Set<string>()),
  ]);
  const kept = rows.filter((c) => matchesFilter(c, filter, decided)).map((conversation) => ({ conversation }));
  const sorted = sortRows(kept, sort === 'relevance' ? 'newest' : sort);
  return {
    rows: sorted.slice(0, limit).map((r) => r.conversation),
    total: kept.length,
    all: rows.length,
    sources: [...new Set(rows.map((c) => c.source))].sort(),
  };
}
