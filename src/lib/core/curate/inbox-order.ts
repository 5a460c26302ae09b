import type { MessageRecord, NoteRecord } from '../records';

/**
 * The Inbox at archive scale (issue 13): candidates ordered by worth, not by conversation.
 * Decisions, constraints, action items and open questions come first, each category's groups from
 * the newest conversation down; then ideas and tentative units; Facts come last, grouped per
 * conversation and per topic (the subject the person opened before them: the conversation's
 * Topics units, by the position of the message they cite). A group is what one keystroke keeps or
 * discards, so every group holds one category of one conversation.
 */
export const WORTH_ORDER = [
  'Decisions',
  'Constraints',
  'Action Items',
  'Open Questions',
  'Ideas',
  'Provisional/Exploratory',
  'Topics',
  'Facts',
] as const;

/** The categories the "review today" queue and the counts put first. */
export const HIGH_WORTH: ReadonlySet<string> = new Set(WORTH_ORDER.slice(0, 4));

/** The "review N today" queue as the person set it: N, and the candidate they stopped at. */
export interface InboxReview {
  size: number;
  cursorId: string | null;
}

export const DEFAULT_REVIEW_SIZE = 20;
export const MAX_REVIEW_SIZE = 500;

/** A valid queue setting, or the reason it is not one. */
export function checkInboxReview(value: unknown): string | null {
  const v = value as Partial<InboxReview> | null;
  if (typeof v !== 'object' || v === null) return 'The review queue setting must be an object.';
  if (!Number.isInteger(v.size) || v.size! < 1 || v.size! > MAX_REVIEW_SIZE)
    return `How many to review a day must be a whole number from 1 to ${MAX_REVIEW_SIZE}.`;
  if (v.cursorId !== null && typeof v.cursorId !== 'string') return 'The review position must name a candidate or be empty.';
  return null;
}

/** Local midnight before `now`: the "today" of the review queue. */
export function startOfDay(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

export function worthRank(category: string): number {
  const i = (WORTH_ORDER as readonly string[]).indexOf(category);
  return i === -1 ? WORTH_ORDER.length : i;
}

export interface InboxItem {
  note: NoteRecord;
  /** The cited messages' roles, in citation order (a decision must cite the user). */
  sources: { id: string; role: MessageRecord['role'] | 'missing' }[];
}

/** One group of the Inbox: the candidates of one conversation under one category (Facts: and one topic). */
export interface InboxGroup {
  key: string;
  conversationId: string | null;
  conversationTitle: string;
  category: string;
  /** For Facts: the topic they fall under (null: before any topic, or no topic known). */
  topic: string | null;
  items: InboxItem[];
}

export interface InboxCounts {
  total: number;
  byCategory: { category: string; count: number }[];
  byConversation: { conversationId: string | null; title: string; count: number }[];
}

/** What the view knows about a candidate's surroundings. */
export interface InboxContext {
  titles: ReadonlyMap<string, string>;
  /** Newest first: conversations with a higher value come first within a category. */
  recency: ReadonlyMap<string, number>;
  roles: ReadonlyMap<string, MessageRecord['role']>;
  /** Position of a message in its conversation. */
  ordinals: ReadonlyMap<string, number>;
  /** Topic units (any status but discarded) per conversation: where each subject opened. */
  topics: readonly Pick<NoteRecord, 'conversationId' | 'text' | 'sourceMessageIds'>[];
}

const UNTITLED = 'Untitled conversation';

function firstOrdinal(ids: readonly string[], ordinals: ReadonlyMap<string, number>): number {
  let best = Number.POSITIVE_INFINITY;
  for (const id of ids) best = Math.min(best, ordinals.get(id) ?? Number.POSITIVE_INFINITY);
  return best;
}

/** The topic a fact falls under: the last topic opened at or before its first cited message. */
function topicIndex(ctx: InboxContext): (note: NoteRecord) => string | null {
  const byConversation = new Map<string, { at: number; text: string }[]>();
  for (const t of ctx.topics) {
    if (!t.conversationId) continue;
    const list = byConversation.get(t.conversationId) ?? [];
    list.push({ at: firstOrdinal(t.sourceMessageIds, ctx.ordinals), text: t.text });
    byConversation.set(t.conversationId, list);
  }
  for (const list of byConversation.values()) list.sort((a, b) => a.at - b.at || a.text.localeCompare(b.text));
  return (note) => {
    const list = note.conversationId ? byConversation.get(note.conversationId) : undefined;
    if (!list) return null;
    const at = firstOrdinal(note.sourceMessageIds, ctx.ordinals);
    let topic: string | null = null;
    for (const t of list) if (t.at <= at) topic = t.text;
    return topic;
  };
}

export function orderInbox(notes: readonly NoteRecord[], ctx: InboxContext): InboxGroup[] {
  const topicOf = topicIndex(ctx);
  const recency = (id: string | null): number => (id ? (ctx.recency.get(id) ?? 0) : 0);
  const sorted = [...notes].sort(
    (a, b) =>
      worthRank(a.category) - worthRank(b.category) ||
      // Within a category: newest conversation first, then in the conversation's order.
      recency(b.conversationId) - recency(a.conversationId) ||
      (a.conversationId ?? '').localeCompare(b.conversationId ?? '') ||
      firstOrdinal(a.sourceMessageIds, ctx.ordinals) - firstOrdinal(b.sourceMessageIds, ctx.ordinals) ||
      a.createdAt - b.createdAt ||
      a.id.localeCompare(b.id),
  );
  const groups = new Map<string, InboxGroup>();
  for (const note of sorted) {
    const topic = note.category === 'Facts' ? topicOf(note) : null;
    const key = `${note.conversationId ?? '-'}|${note.category}${topic === null ? '' : `|${topic}`}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        conversationId: note.conversationId,
        conversationTitle: (note.conversationId && ctx.titles.get(note.conversationId)) || UNTITLED,
        category: note.category,
        topic,
        items: [],
      };
      groups.set(key, group);
    }
    group.items.push({ note, sources: note.sourceMessageIds.map((id) => ({ id, role: ctx.roles.get(id) ?? 'missing' })) });
  }
  return [...groups.values()];
}

export function countInbox(groups: readonly InboxGroup[]): InboxCounts {
  const byCategory = new Map<string, number>();
  const byConversation = new Map<string | null, { conversationId: string | null; title: string; count: number }>();
  let total = 0;
  for (const g of groups) {
    total += g.items.length;
    byCategory.set(g.category, (byCategory.get(g.category) ?? 0) + g.items.length);
    const row = byConversation.get(g.conversationId) ?? { conversationId: g.conversationId, title: g.conversationTitle, count: 0 };
    row.count += g.items.length;
    byConversation.set(g.conversationId, row);
  }
  return {
    total,
    byCategory: [...byCategory.entries()]
      .map(([category, count]) => ({ category, count }))
      .sort((a, b) => worthRank(a.category) - worthRank(b.category)),
    byConversation: [...byConversation.values()].sort((a, b) => b.count - a.count || a.title.localeCompare(b.title)),
  };
}

/**
 * The first `limit` candidates in worth order, in their groups (a group cut by the limit keeps
 * its first items). The "review N today" queue is this with N less what was reviewed today.
 */
export function firstCandidates(groups: readonly InboxGroup[], limit: number): InboxGroup[] {
  const out: InboxGroup[] = [];
  let left = Math.max(0, Math.floor(limit));
  for (const g of groups) {
    if (left === 0) break;
    const items = g.items.slice(0, left);
    out.push(items.length === g.items.length ? g : { ...g, items });
    left -= items.length;
  }
  return out;
}

/** Only the groups of one category or one conversation (the counts are filters). */
export function filterGroups(groups: readonly InboxGroup[], filter: { category?: string; conversationId?: string | null }): InboxGroup[] {
  return groups.filter(
    (g) =>
      (filter.category === undefined || g.category === filter.category) &&
      (filter.conversationId === undefined || g.conversationId === filter.conversationId),
  );
}
