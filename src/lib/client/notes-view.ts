import type { HistoryRecord, NoteRecord, NoteStatus } from '../core/records';

/** Which notes the Notes screen lists. */
export type NotesFilter = 'kept' | 'archived' | 'discarded';

const STATUSES: Record<NotesFilter, readonly NoteStatus[]> = {
  kept: ['kept'],
  archived: ['archived', 'superseded'],
  discarded: ['discarded'],
};

/**
 * Notes of the filter whose text holds every word of the query (case-insensitive), newest first;
 * with `conversationId`, only the notes that came from that conversation.
 */
export function filterNotes(
  notes: readonly NoteRecord[],
  filter: NotesFilter,
  query: string,
  conversationId: string | null = null,
): NoteRecord[] {
  const words = query.toLowerCase().split(/\s+/u).filter(Boolean);
  return notes
    .filter((n) => n.tier !== 'resource' && n.tier !== 'web' && STATUSES[filter].includes(n.status))
    .filter((n) => conversationId === null || n.conversationId === conversationId)
    .filter((n) => {
      const text = `${n.title ?? ''} ${n.text} ${n.category}`.toLowerCase();
      return words.every((w) => text.includes(w));
    })
    .sort((a, b) => (b.keptAt ?? b.updatedAt) - (a.keptAt ?? a.updatedAt) || a.id.localeCompare(b.id));
}

/** What a history entry changed, in a few words ("status provisional → kept", "text edited"). */
export function describeChange(entry: HistoryRecord): string {
  const before = entry.before as NoteRecord | null;
  const after = entry.after as NoteRecord | null;
  if (!before && after) return `created (${after.status})`;
  if (before && !after) return 'deleted';
  if (!before || !after) return '';
  const parts: string[] = [];
  if (before.status !== after.status) parts.push(`status ${before.status} → ${after.status}`);
  if (before.text !== after.text) parts.push('text edited');
  if (before.supersedes !== after.supersedes) parts.push(after.supersedes ? 'supersedes an older note' : 'no longer supersedes');
  if (before.supersededBy !== after.supersededBy) parts.push(after.supersededBy ? 'replaced by a newer note' : 'no longer replaced');
  if (before.sourceMessageIds.length !== after.sourceMessageIds.length) parts.push('citations merged');
  return parts.join(', ') || 'details changed';
}
