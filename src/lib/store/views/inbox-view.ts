import { orderInbox, type InboxGroup } from '../../core/curate/inbox-order';
import type { NoteRecord } from '../../core/records';
import type { Vault } from '../vault';
import { getMessages } from '../messages-store';

export type { InboxCounts, InboxGroup, InboxItem } from '../../core/curate/inbox-order';

/** History actions by which a person reviewed a candidate in the Inbox. */
const REVIEW_ACTIONS: ReadonlySet<string> = new Set(['keep', 'edit-and-keep', 'discard']);

/**
 * The Inbox as stored now: provisional engram candidates in worth order (core/curate/inbox-order.ts),
 * with their conversation titles, cited roles and, for Facts, the topic they fall under.
 */
export async function readInbox(vault: Vault): Promise<InboxGroup[]> {
  const notes = (await vault.db.notes.where('status').equals('provisional').toArray()).filter((n) => n.tier === 'engram');
  const conversationIds = [...new Set(notes.map((n) => n.conversationId).filter((id): id is string => id !== null))];
  const conversations = await vault.db.conversations.bulkGet(conversationIds);
  const hasFacts = new Set(notes.filter((n) => n.category === 'Facts').map((n) => n.conversationId));
  const topics: NoteRecord[] = hasFacts.size
    ? await vault.db.notes
        .where('category')
        .equals('Topics')
        .filter((n) => hasFacts.has(n.conversationId) && n.status !== 'discarded')
        .toArray()
    : [];
  const messageIds = [...new Set([...notes, ...topics].flatMap((n) => n.sourceMessageIds))];
  const messages = await getMessages(vault.db, messageIds);
  const found = messages.filter((m) => m !== undefined);
  const present = conversations.filter((c) => c !== undefined);
  return orderInbox(notes, {
    titles: new Map(present.map((c) => [c.id, c.title])),
    recency: new Map(present.map((c) => [c.id, c.updatedAt ?? c.createdAt ?? 0])),
    roles: new Map(found.map((m) => [m.id, m.role])),
    ordinals: new Map(found.map((m) => [m.id, m.ordinal])),
    topics,
  });
}

/**
 * Candidates the person reviewed (kept, edited and kept, discarded) since `since`, counted once
 * each and only while they stay reviewed (an undone keep no longer counts).
 */
export async function reviewedSince(vault: Vault, since: number): Promise<number> {
  const ids = new Set<string>();
  await vault.db.history
    .where('at')
    .aboveOrEqual(since)
    .each((h) => {
      if (h.table === 'notes' && h.actor === 'user' && REVIEW_ACTIONS.has(h.action)) ids.add(h.recordId);
    });
  const notes = await vault.db.notes.bulkGet([...ids]);
  return notes.filter((n) => n !== undefined && n.status !== 'provisional').length;
}
