/**
 * What the Conversations screen filters on and links to, read from the notes: which conversations
 * hold decisions, and how many candidates and kept notes one conversation produced.
 */
import type { ConversationLinkCounts } from '../core/api/conversation-search';
import type { NoteRecord } from '../core/records';

export type { ConversationLinkCounts } from '../core/api/conversation-search';
import type { VaultDb } from './schema';
import { withStoreTimeout } from './transaction';

/** A Decision still in the Inbox or kept: what "has decisions" means (archived, superseded and discarded ones do not count). */
const counts = (n: NoteRecord) => n.category === 'Decisions' && (n.status === 'kept' || n.status === 'provisional');

/** Conversations with a kept Decision note or a Decision candidate. */
export async function decisionConversationIds(db: VaultDb): Promise<Set<string>> {
  const notes = await withStoreTimeout(db.notes.where('category').equals('Decisions').toArray(), { label: 'reading decisions' });
  return new Set(notes.filter(counts).flatMap((n) => (n.conversationId ? [n.conversationId] : [])));
}

export async function conversationLinkCounts(db: VaultDb, conversationId: string): Promise<ConversationLinkCounts> {
  const notes = await withStoreTimeout(db.notes.where('conversationId').equals(conversationId).toArray(), {
    label: 'reading the notes of a conversation',
  });
  return {
    candidates: notes.filter((n) => n.status === 'provisional' && n.tier === 'engram').length,
    kept: notes.filter((n) => n.status === 'kept').length,
    decisions: notes.filter(counts).length,
  };
}

/** The ids of the chunks cut from these conversations' messages (keys only: the chunk texts are not read). */
export async function chunkIdsOf(db: VaultDb, conversationIds: readonly string[]): Promise<Set<string>> {
  if (conversationIds.length === 0) return new Set();
  const keys = await withStoreTimeout(db.chunks.where('conversationId').anyOf(conversationIds).primaryKeys(), {
    label: 'reading the chunks of the filtered conversations',
  });
  return new Set(keys);
}
