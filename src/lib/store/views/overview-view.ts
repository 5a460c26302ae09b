import { monthlyCounts, topTopics, type MonthCount, type Topic } from '../../core/overview/archive-stats';
import { subjectThreads, type TitledThread } from './conversation-insight';
import { withStoreTimeout } from '../transaction';
import type { Vault } from '../vault';

/** What the Overview screen shows, read from the vault in one pass. */
export interface ArchiveOverview {
  conversations: number;
  messages: number;
  keptNotes: number;
  decisions: number;
  months: MonthCount[];
  undated: number;
  topics: Topic[];
  threads: TitledThread[];
}

export async function readOverview(vault: Vault): Promise<ArchiveOverview> {
  const conversations = (
    await withStoreTimeout(vault.db.conversations.toArray(), { label: 'reading conversations for the overview' })
  ).filter((c) => c.state === 'visible');
  const kept = await withStoreTimeout(vault.db.notes.where('status').equals('kept').toArray(), { label: 'reading notes for the overview' });
  const decisions = kept.filter((n) => n.category === 'Decisions');
  const keptText = new Map<string, string[]>();
  for (const note of kept)
    if (note.conversationId) keptText.set(note.conversationId, [...(keptText.get(note.conversationId) ?? []), note.text]);
  // A decision is dated by the conversation it was made in (the note's own date is when it was extracted).
  const started = new Map(conversations.map((c) => [c.id, c.createdAt]));
  const decidedAt = decisions.map((d) => ({ createdAt: (d.conversationId ? started.get(d.conversationId) : null) ?? d.createdAt }));
  const { months, undated } = monthlyCounts(conversations, decidedAt);
  return {
    conversations: conversations.length,
    messages: conversations.reduce((n, c) => n + c.messageCount, 0),
    keptNotes: kept.length,
    decisions: decisions.length,
    months,
    undated,
    topics: topTopics(conversations.map((c) => ({ id: c.id, text: [c.title, ...(keptText.get(c.id) ?? [])].join('\n') }))),
    threads: await subjectThreads(vault),
  };
}
