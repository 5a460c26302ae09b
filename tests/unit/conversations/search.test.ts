import { describe, expect, it } from 'vitest';
import type { ConversationSearchRequest } from '../../../src/lib/core/api/conversation-search';
import { dayBound, matchesFilter, rankConversations, sortRows } from '../../../src/lib/core/conversations/browse';
import { queryTerms } from '../../../src/lib/core/conversations/highlight';
import { stem } from '../../../src/lib/core/text/analyze';
import type { ConversationRecord } from '../../../src/lib/core/records';
import { Bm25Index } from '../../../src/lib/core/index/bm25';
import { SEARCH_DEPTH, searchConversations } from '../../../src/lib/services/index/conversation-search';
import { openVault } from '../../../src/lib/store/vault';
import { readConversationBrowse } from '../../../src/lib/store/views/conversations-view';
import { harnessPool, type Harness } from '../../factories/index-harness';
import { chatgptConversation, text } from '../../factories/import-fixtures';
import { chunk, conversation, message } from '../../factories/records';
import { getMessage } from '../../../src/lib/store/messages-store';

const fresh = harnessPool();
const DAY = 86_400_000;

/** Three ChatGPT conversations (dated 2023-11, 2024-03, 2024-06) and a pasted transcript (undated), through the real importer and index. */
const MOSS_MANY = chatgptConversation(
  [
    { id: 'q1', parent: null, role: 'user', content: text('My moss garden needs help. The moss is turning brown.'), time: 1_700_000_000 },
    {
      id: 'a1',
      parent: 'q1',
      role: 'assistant',
      content: text('Brown moss is dry moss: mist the moss every morning and keep it shaded.'),
      time: 1_700_000_010,
    },
    { id: 'q2', parent: 'a1', role: 'user', content: text("I've decided to mist it at dawn."), time: 1_700_000_020 },
  ],
  'q2',
  { id: 'moss-1', title: 'Brown moss', create_time: 1_700_000_000, update_time: 1_700_000_020 },
);
const MOSS_ONCE = chatgptConversation(
  [
    {
      id: 'q1',
      parent: null,
      role: 'user',
      content: text('Which stones suit a dry garden? Gravel, boulders, a little moss?'),
      time: 1_710_000_000,
    },
    {
      id: 'a1',
      parent: 'q1',
      role: 'assistant',
      content: text('Granite boulders and raked gravel; keep plants sparse.'),
      time: 1_710_000_010,
    },
  ],
  'a1',
  { id: 'stones-1', title: 'Stones for a dry garden', create_time: 1_710_000_000, update_time: 1_710_000_010 },
);
const NO_MOSS = chatgptConversation(
  [
    { id: 'q1', parent: null, role: 'user', content: text('Plan a week in Kyoto on a budget.'), time: 1_718_000_000 },
    { id: 'a1', parent: 'q1', role: 'assistant', content: text('About 150 dollars a day: lodging, food, trains.'), time: 1_718_000_010 },
    { id: 'q2', parent: 'a1', role: 'user', content: text('Is a rail pass worth it?'), time: 1_718_000_020 },
    { id: 'a2', parent: 'q2', role: 'assistant', content: text('Only between cities.'), time: 1_718_000_030 },
  ],
  'a2',
  { id: 'kyoto-1', title: 'Kyoto budget', create_time: 1_718_000_000, update_time: 1_718_000_030 },
);
/** A pasted transcript is titled by its first question and has no date. */
const WALLS = 'Does moss grow on north walls?';
const TRANSCRIPT = 'User: Does moss grow on north walls?\nAssistant: Yes, moss likes the shade of a north wall.';

async function vaultWithChats(): Promise<Harness> {
  const h = await fresh();
  await h.importText('chats.json', JSON.stringify([MOSS_MANY, MOSS_ONCE, NO_MOSS]));
  await h.importText('walls.txt', TRANSCRIPT);
  await h.drain();
  return h;
}

async function titledIds(h: Harness): Promise<Record<string, string>> {
  const rows = await h.vault.db.conversations.toArray();
  return Object.fromEntries(rows.map((c) => [c.title, c.id]));
}

const request = (query: string, more: Partial<ConversationSearchRequest> = {}): ConversationSearchRequest => ({
  query,
  filter: {},
  sort: 'relevance',
  limit: 50,
  ...more,
});

describe('searchConversations over the real keyword index', () => {
  it('ranks the conversation that says it most first, and finds nothing for words no message holds', async () => {
    const h = await vaultWithChats();
    const found = await searchConversations(h.vault, h.service.parts.bm25, request('moss'));
    expect(found.documents).toBeGreaterThan(0);
    expect(found.total).toBe(3);
    expect(found.hits.map((hit) => hit.conversation.title)).toContain(WALLS);
    expect(found.hits[0]!.conversation.title).toBe('Brown moss');
    expect(found.hits.map((hit) => hit.conversation.title)).not.toContain('Kyoto budget');
    expect((await searchConversations(h.vault, h.service.parts.bm25, request('xylophone'))).hits).toEqual([]);
    // Stop words alone are no query.
    expect((await searchConversations(h.vault, h.service.parts.bm25, request('the of and'))).total).toBe(0);
  });

  it('returns snippets and match offsets that point at the query words in the stored message text', async () => {
    const h = await vaultWithChats();
    const { hits } = await searchConversations(h.vault, h.service.parts.bm25, request('misting moss'));
    const best = hits[0]!;
    expect(best.matches.length).toBeGreaterThan(0);
    const terms = queryTerms('misting moss');
    for (const match of best.matches) {
      const stored = (await getMessage(h.vault.db, match.messageId))!;
      expect(stored.conversationId).toBe(best.conversation.id);
      expect(match.ranges.length).toBeGreaterThan(0);
      for (const r of match.ranges) expect(terms.has(stem(stored.text.slice(r.start, r.end).toLowerCase()))).toBe(true);
      for (const r of match.snippet.highlights) expect(terms.has(stem(match.snippet.text.slice(r.start, r.end).toLowerCase()))).toBe(true);
      expect(stored.text.slice(match.snippet.start, match.snippet.end)).toBe(match.snippet.text);
    }
    const scores = best.matches.map((m) => m.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(best.titleRanges).toEqual([{ start: 6, end: 10 }]);
  });

  it('filters by source, by date range and by "has decisions"', async () => {
    const h = await vaultWithChats();
    const ids = await titledIds(h);
    const titles = async (filter: ConversationSearchRequest['filter']) =>
      (await searchConversations(h.vault, h.service.parts.bm25, request('moss', { filter }))).hits
        .map((hit) => hit.conversation.title)
        .sort();

    expect(await titles({ sources: ['chatgpt'] })).toEqual(['Brown moss', 'Stones for a dry garden']);
    expect(await titles({ sources: ['transcript'] })).toEqual([WALLS]);

    // 2024 only: the November 2023 conversation falls out, and so does the undated transcript.
    expect(await titles({ from: Date.UTC(2024, 0, 1), to: Date.UTC(2024, 11, 31) })).toEqual(['Stones for a dry garden']);
    expect(await titles({ to: Date.UTC(2024, 0, 1) })).toEqual(['Brown moss']);

    expect(await titles({ hasDecisions: true })).toEqual([]);
    // A Decision candidate (provisional) from "Stones" and a discarded one from "Brown moss": only the live one counts.
    const note = (id: string, conversationId: string, status: 'provisional' | 'discarded') => ({
      id,
      text: 'Use granite boulders.',
      category: 'Decisions',
      status,
      tier: 'engram' as const,
      confidence: 1,
      sourceMessageIds: [],
      conversationId,
      createdAt: 1,
      updatedAt: 1,
      keptAt: null,
      supersedes: null,
      supersededBy: null,
      accessCount: 0,
      lastAccessedAt: null,
      pinned: false,
      contentHash: id,
      flags: [],
      hlc: '0',
    });
    await h.vault.db.notes.bulkPut([
      note('n1', ids['Stones for a dry garden']!, 'provisional'),
      note('n2', ids['Brown moss']!, 'discarded'),
    ]);
    expect(await titles({ hasDecisions: true })).toEqual(['Stones for a dry garden']);
  });

  it('sorts hits by date and by size when asked, undated last', async () => {
    const h = await vaultWithChats();
    const order = async (sort: ConversationSearchRequest['sort']) =>
      (await searchConversations(h.vault, h.service.parts.bm25, request('moss', { sort, filter: { sources: ['chatgpt'] } }))).hits.map(
        (hit) => hit.conversation.title,
      );
    expect(await order('newest')).toEqual(['Stones for a dry garden', 'Brown moss']);
    expect(await order('oldest')).toEqual(['Brown moss', 'Stones for a dry garden']);
    const all = await searchConversations(h.vault, h.service.parts.bm25, request('moss', { sort: 'newest' }));
    expect(all.hits.at(-1)!.conversation.title).toBe(WALLS);
    expect(await order('largest')).toEqual(['Brown moss', 'Stones for a dry garden']);
    expect(await order('smallest')).toEqual(['Stones for a dry garden', 'Brown moss']);
  });

  it('leaves out kept notes (documents of the same index) and messages off the visible thread', async () => {
    const h = await vaultWithChats();
    const branched = chatgptConversation(
      [
        { id: 'q', parent: null, role: 'user', content: text('When should I repot a juniper?'), time: 1_700_000_000 },
        { id: 'old', parent: 'q', role: 'assistant', content: text('Repot it in autumn, with the lanterns lit.'), time: 1_700_000_010 },
        { id: 'new', parent: 'q', role: 'assistant', content: text('Repot it in early spring.'), time: 1_700_000_020 },
      ],
      'new',
      { id: 'juniper-1', title: 'Juniper' },
    );
    await h.importText('juniper.json', JSON.stringify([branched]));
    await h.drain();
    // A kept note is a document of the same index (here added as the index adds one): not a conversation hit.
    await h.service.parts.bm25.edit((index) => index.add('note-lantern', 'Stone lanterns light the path.'));
    expect(h.service.parts.bm25.search('lanterns', 5).map((hit) => hit.id)).toEqual(['note-lantern']);
    expect((await searchConversations(h.vault, h.service.parts.bm25, request('lanterns'))).total).toBe(0);
    expect((await searchConversations(h.vault, h.service.parts.bm25, request('spring'))).hits.map((x) => x.conversation.title)).toEqual([
      'Juniper',
    ]);
  });

  it('the browse view applies the same filters and sorts without a query', async () => {
    const h = await vaultWithChats();
    const browse = await readConversationBrowse(h.vault, { sources: ['chatgpt'] }, 'largest', 2);
    expect(browse.all).toBe(4);
    expect(browse.total).toBe(3);
    expect(browse.rows.map((c) => c.title)).toEqual(['Kyoto budget', 'Brown moss']);
    expect(browse.sources).toContain('chatgpt');
  });
});

describe('searchConversations past the search depth', () => {
  /**
   * A ChatGPT conversation whose SEARCH_DEPTH + 50 passages all say "moss" loudly, and a dated
   * transcript that says it once in a long message: unfiltered, the transcript ranks below the depth.
   */
  async function deepVault() {
    const vault = await openVault(`conversation-search-depth-${process.pid}-${Date.now()}`);
    const index = new Bm25Index();
    const loud = conversation({ id: 'loud', source: 'chatgpt', title: 'Loud', messageCount: SEARCH_DEPTH + 50 });
    const quiet = conversation({ id: 'quiet', source: 'transcript', title: 'Quiet', messageCount: 1, updatedAt: Date.UTC(2024, 5, 1) });
    const said = Array.from({ length: SEARCH_DEPTH + 50 }, (_, i) => ({ id: `m${i}`, conversationId: 'loud', text: 'moss moss moss' }));
    said.push({
      id: 'q0',
      conversationId: 'quiet',
      text: `The wall by the shed grows a little moss among ${'stones and ferns '.repeat(20)}.`,
    });
    await vault.db.conversations.bulkPut([loud, quiet]);
    await vault.db.messages.bulkPut(said.map((m, ordinal) => message({ ...m, ordinal })));
    await vault.db.chunks.bulkPut(
      said.map((m) => chunk({ id: `${m.id}#0`, parentId: m.id, conversationId: m.conversationId, text: m.text })),
    );
    for (const m of said) index.add(`${m.id}#0`, m.text);
    expect(index.search('moss', SEARCH_DEPTH).some((hit) => hit.id === 'q0#0')).toBe(false);
    return { vault, index };
  }

  it('finds a filtered match that ranks below the first SEARCH_DEPTH passages, and says when the count is a lower bound', async () => {
    const { vault, index } = await deepVault();
    const unfiltered = await searchConversations(vault, index, request('moss'));
    expect(unfiltered.truncated).toBe(true);
    expect(unfiltered.hits.map((hit) => hit.conversation.id)).toEqual(['loud']);

    for (const filter of [{ sources: ['transcript' as const] }, { from: Date.UTC(2024, 0, 1) }]) {
      const found = await searchConversations(vault, index, request('moss', { filter }));
      expect(found.hits.map((hit) => hit.conversation.id)).toEqual(['quiet']);
      expect(found.total).toBe(1);
      expect(found.truncated).toBe(false);
      expect(found.hits[0]!.matches[0]!.messageId).toBe('q0');
    }
    // A filter most conversations pass (the left-out side is read instead) still ranks within it.
    const chatgpt = await searchConversations(vault, index, request('moss', { filter: { sources: ['chatgpt'] } }));
    expect(chatgpt.hits.map((hit) => hit.conversation.id)).toEqual(['loud']);
    // A filter nothing passes: no search at all.
    expect((await searchConversations(vault, index, request('moss', { filter: { sources: ['claude'] } }))).total).toBe(0);
  });
});

describe('filters and sorts (pure)', () => {
  const c = (id: string, at: number | null, messageCount: number, title = id): ConversationRecord => ({
    ...conversation({ id, title, messageCount }),
    createdAt: at,
    updatedAt: at,
    state: 'visible',
  });

  it('a bounded date range leaves undated conversations out; an open one keeps them', () => {
    expect(matchesFilter(c('a', null, 1), { from: 0 }, new Set())).toBe(false);
    expect(matchesFilter(c('a', null, 1), { from: null, to: null }, new Set())).toBe(true);
    expect(matchesFilter(c('a', 5 * DAY, 1), { from: 5 * DAY, to: 5 * DAY }, new Set())).toBe(true);
    expect(matchesFilter(c('a', 5 * DAY, 1), { to: 5 * DAY - 1 }, new Set())).toBe(false);
  });

  it('sorts undated last for newest and oldest alike, ties by title', () => {
    const rows = [c('x', null, 3), c('b', 2 * DAY, 1), c('a', 2 * DAY, 9), c('c', DAY, 5)].map((conversation) => ({ conversation }));
    expect(sortRows(rows, 'newest').map((r) => r.conversation.id)).toEqual(['a', 'b', 'c', 'x']);
    expect(sortRows(rows, 'oldest').map((r) => r.conversation.id)).toEqual(['c', 'a', 'b', 'x']);
    expect(sortRows(rows, 'largest').map((r) => r.conversation.id)).toEqual(['a', 'c', 'x', 'b']);
  });

  it('groups chunk hits by conversation, scoring each by its best chunk', () => {
    const conversations = new Map([c('one', DAY, 2), c('two', DAY, 2)].map((x) => [x.id, x]));
    const messages = new Map([
      ['m1', { text: 'moss here', role: 'user' as const, ordinal: 0 }],
      ['m2', { text: 'moss there', role: 'assistant' as const, ordinal: 1 }],
      ['m3', { text: 'moss', role: 'user' as const, ordinal: 0 }],
    ]);
    const ranked = rankConversations({
      hits: [
        { conversationId: 'one', messageId: 'm1', score: 1 },
        { conversationId: 'one', messageId: 'm2', score: 1.5 },
        { conversationId: 'two', messageId: 'm3', score: 2 },
      ],
      conversations,
      messages,
      terms: queryTerms('moss'),
      filter: {},
      decided: new Set(),
      sort: 'relevance',
      limit: 10,
    });
    expect(ranked.hits.map((h) => [h.conversation.id, h.score, h.matchCount])).toEqual([
      ['two', 2, 1],
      ['one', 1.5, 2],
    ]);
    expect(ranked.hits[1]!.matches.map((m) => m.messageId)).toEqual(['m2', 'm1']);
  });

  it('reads a date input as the start or the end of that local day', () => {
    const start = dayBound('2024-03-05', 'start')!;
    const end = dayBound('2024-03-05', 'end')!;
    expect(new Date(start).getDate()).toBe(5);
    expect(end - start).toBe(DAY - 1);
    expect(dayBound('', 'start')).toBeNull();
    expect(dayBound('5 March', 'end')).toBeNull();
  });
});
