import { CATEGORIES } from '../../core/extract/units';
import type { MessageRecord, NoteRecord } from '../../core/records';
import type { Vault } from '../vault';

/** One group of the Inbox: the candidates of one conversation under one category. */
export interface InboxGroup {
  key: string;
  conversationId: string | null;
  conversationTitle: string;
  category: string;
  items: InboxItem[];
}

export interface InboxItem {
  note: NoteRecord;
  /** The cited messages' roles, in citation order (a decision must cite the user). */
  sources: { id: string; role: MessageRecord['role'] | 'missing' }[];
}

const categoryRank = (category: string): number => {
  const i = (CATEGORIES as readonly string[]).indexOf(category);
  return i === -1 ? CATEGORIES.length : i;
};

export function groupCandidates(
  notes: readonly NoteRecord[],
  titles: ReadonlyMap<string, string>,
  roles: ReadonlyMap<string, MessageRecord['role']>,
): InboxGroup[] {
  const groups = new Map<string, InboxGroup>();
  const sorted = [...notes].sort(
    (a, b) =>
      (a.conversationId ?? '').localeCompare(b.conversationId ?? '') ||
      categoryRank(a.category) - categoryRank(b.category) ||
      a.createdAt - b.createdAt ||
      a.id.localeCompare(b.id),
  );
  for (const note of sorted) {
    const key = `${note.conversationId ?? '-'}|${note.category}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        conversationId: note.conversationId,
        conversationTitle: (note.conversationId && titles.get(note.conversationId)) || 'Untitled conversation',
        category: note.category,
        items: [],
      };
      groups.set(key, group);
    }
    group.items.push({ note, sources: note.sourceMessageIds.map((id) => ({ id, role: roles.get(id) ?? 'missing' })) });
  }
  return [...groups.values()];
}

/** The Inbox as stored now: provisional engram candidates with their conversation titles and cited roles. */
export async function readInbox(vault: Vault): Promise<InboxGroup[]> {
  const notes = (await vault.db.notes.where('status').equals('provisional').toArray()).filter((n) => n.tier === 'engram');
  const conversationIds = [...new Set(notes.map((n) => n.conversationId).filter((id): id is string => id !== null))];
  const conversations = await vault.db.conversations.bulkGet(conversationIds);
  const messages = await vault.db.messages.bulkGet([...new Set(notes.flatMap((n) => n.sourceMessageIds))]);
  const titles = new Map(conversations.filter((c) => c !== undefined).map((c) => [c.id, c.title]));
  const roles = new Map(messages.filter((m) => m !== undefined).map((m) => [m.id, m.role]));
  return groupCandidates(notes, titles, roles);
}
