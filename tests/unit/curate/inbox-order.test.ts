import { describe, expect, it } from 'vitest';
import {
  checkInboxReview,
  countInbox,
  filterGroups,
  firstCandidates,
  orderInbox,
  startOfDay,
  WORTH_ORDER,
  type InboxContext,
} from '../../../src/lib/core/curate/inbox-order';
import type { NoteRecord } from '../../../src/lib/core/records';
import { note } from '../../factories/records';

/** Two conversations: "old" (updated first) and "new"; messages m0..m9 in order in each. */
function context(topics: InboxContext['topics'] = []): InboxContext {
  const ordinals = new Map<string, number>();
  for (const c of ['old', 'new']) for (let i = 0; i < 10; i++) ordinals.set(`${c}-m${i}`, i);
  return {
    titles: new Map([
      ['old', 'Old chat'],
      ['new', 'New chat'],
    ]),
    recency: new Map([
      ['old', 1],
      ['new', 2],
    ]),
    roles: new Map([...ordinals.keys()].map((id) => [id, 'user' as const])),
    ordinals,
    topics,
  };
}

let seq = 0;
function candidate(conversationId: string, category: string, message: number, text = `unit ${++seq}`): NoteRecord {
  return note({
    id: `${conversationId}-${category}-${text}`,
    conversationId,
    category,
    text,
    status: 'provisional',
    sourceMessageIds: [`${conversationId}-m${message}`],
    createdAt: 1000 + seq,
  });
}

describe('the Inbox in worth order', () => {
  it('puts decisions, constraints, action items and open questions before ideas, tentative units, topics and facts', () => {
    const notes = [...WORTH_ORDER].reverse().map((category, i) => candidate('old', category, i));
    const groups = orderInbox(notes, context());
    expect(groups.map((g) => g.category)).toEqual([...WORTH_ORDER]);
  });

  it('within a category lists the newest conversation first, items in the order of their messages', () => {
    const notes = [candidate('old', 'Decisions', 1), candidate('new', 'Decisions', 5), candidate('new', 'Decisions', 2)];
    const groups = orderInbox(notes, context());
    expect(groups.map((g) => [g.conversationTitle, g.items.map((i) => i.note.sourceMessageIds[0])])).toEqual([
      ['New chat', ['new-m2', 'new-m5']],
      ['Old chat', ['old-m1']],
    ]);
  });

  it('groups facts per conversation and per topic: the last topic opened at or before the fact', () => {
    const topics = [
      { conversationId: 'new', text: 'Pruning the maple.', sourceMessageIds: ['new-m0'] },
      { conversationId: 'new', text: 'Moss in the courtyard.', sourceMessageIds: ['new-m4'] },
    ];
    const notes = [
      candidate('new', 'Facts', 6, 'moss fact'),
      candidate('new', 'Facts', 1, 'maple fact'),
      candidate('new', 'Facts', 4, 'moss opener fact'),
      candidate('old', 'Facts', 3, 'old fact'),
    ];
    const groups = orderInbox(notes, context(topics));
    expect(groups.map((g) => [g.conversationId, g.topic, g.items.map((i) => i.note.text)])).toEqual([
      ['new', 'Pruning the maple.', ['maple fact']],
      ['new', 'Moss in the courtyard.', ['moss opener fact', 'moss fact']],
      ['old', null, ['old fact']],
    ]);
    // Decisions are not split by topic.
    expect(orderInbox([candidate('new', 'Decisions', 6)], context(topics))[0]!.topic).toBeNull();
  });

  it('counts per category (in worth order) and per conversation (largest first)', () => {
    const notes = [
      candidate('old', 'Facts', 1),
      candidate('old', 'Facts', 2),
      candidate('old', 'Decisions', 3),
      candidate('new', 'Open Questions', 1),
    ];
    const counts = countInbox(orderInbox(notes, context()));
    expect(counts.total).toBe(4);
    expect(counts.byCategory).toEqual([
      { category: 'Decisions', count: 1 },
      { category: 'Open Questions', count: 1 },
      { category: 'Facts', count: 2 },
    ]);
    expect(counts.byConversation.map((c) => [c.title, c.count])).toEqual([
      ['Old chat', 3],
      ['New chat', 1],
    ]);
  });

  it('the day queue takes the first N candidates in worth order, cutting a group rather than skipping it', () => {
    const notes = [
      candidate('new', 'Decisions', 1),
      candidate('new', 'Decisions', 2),
      candidate('old', 'Constraints', 1),
      candidate('old', 'Facts', 1),
    ];
    const groups = orderInbox(notes, context());
    expect(firstCandidates(groups, 3).map((g) => [g.category, g.items.length])).toEqual([
      ['Decisions', 2],
      ['Constraints', 1],
    ]);
    expect(firstCandidates(groups, 1).map((g) => [g.category, g.items.length])).toEqual([['Decisions', 1]]);
    expect(firstCandidates(groups, 0)).toEqual([]);
    expect(firstCandidates(groups, -2)).toEqual([]);
    expect(firstCandidates(groups, 99)).toEqual(groups);
  });

  it('filters by a category or a conversation', () => {
    const groups = orderInbox(
      [candidate('new', 'Decisions', 1), candidate('old', 'Decisions', 1), candidate('old', 'Facts', 2)],
      context(),
    );
    expect(filterGroups(groups, { category: 'Decisions' }).map((g) => g.conversationId)).toEqual(['new', 'old']);
    expect(filterGroups(groups, { conversationId: 'old' }).map((g) => g.category)).toEqual(['Decisions', 'Facts']);
  });

  it('accepts a queue setting of 1..500 a day with a candidate id or none, and says what is wrong otherwise', () => {
    expect(checkInboxReview({ size: 20, cursorId: null })).toBeNull();
    expect(checkInboxReview({ size: 500, cursorId: 'note-1' })).toBeNull();
    expect(checkInboxReview({ size: 0, cursorId: null })).toMatch(/from 1 to 500/);
    expect(checkInboxReview({ size: 2.5, cursorId: null })).toMatch(/whole number/);
    expect(checkInboxReview({ size: 5, cursorId: 7 })).toMatch(/review position/);
    expect(checkInboxReview(null)).toMatch(/must be an object/);
  });

  it('today starts at local midnight', () => {
    const noon = new Date(2026, 10, 25, 12, 30).getTime();
    expect(startOfDay(noon)).toBe(new Date(2026, 10, 25).getTime());
    expect(startOfDay(startOfDay(noon))).toBe(startOfDay(noon));
  });
});
