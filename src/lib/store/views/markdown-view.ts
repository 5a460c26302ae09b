import type { MarkdownConversation, MarkdownInput } from '../../core/markdown/pages';
import type { Vault } from '../vault';

/**
 * What the Markdown export writes, read from the vault: kept notes (decisions are kept notes of the
 * Decisions category) and the conversations they came from. Entities join when the vault has them
 * (issue 12); until then the export has none.
 */
export async function loadMarkdownInput(vault: Vault): Promise<MarkdownInput> {
  const notes = await vault.db.notes.where('status').equals('kept').toArray();
  const ids = [...new Set(notes.map((n) => n.conversationId).filter((id): id is string => id !== null))];
  const rows = await vault.db.conversations.bulkGet(ids);
  const conversations = new Map<string, MarkdownConversation>();
  for (const row of rows) {
    if (row && row.state === 'visible')
      conversations.set(row.id, { id: row.id, title: row.title, source: row.source, createdAt: row.createdAt });
  }
  return { notes, conversations };
}
