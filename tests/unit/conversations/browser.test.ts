import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConversationSearchRequest, ConversationSearchResult } from '../../../src/lib/core/api/conversation-search';
import {
  ConversationBrowser,
  SEARCH_DEBOUNCE_MS,
  browseSearch,
  parseBrowseParams,
  type SearchBackend,
} from '../../../src/lib/client/conversation-browser.svelte';
import type { ConversationBrowse } from '../../../src/lib/store/views/vault-views';
import { conversation } from '../../factories/records';

/** A search backend whose answers the test releases by hand, in any order. */
function deferredBackend() {
  const calls: { request: ConversationSearchRequest; answer: (result: ConversationSearchResult) => void }[] = [];
  const backend: SearchBackend = {
    searchConversations: (request) => new Promise((answer) => calls.push({ request, answer })),
  };
  return { backend, calls };
}

const resultFor = (title: string): ConversationSearchResult => ({
  hits: [{ conversation: conversation({ id: title, title }), score: 1, titleRanges: [], matches: [], matchCount: 1 }],
  total: 1,
  documents: 10,
  depth: 2_000,
  truncated: false,
});

const BROWSE: ConversationBrowse = { rows: [conversation()], total: 1, all: 1, sources: ['chatgpt', 'claude'] };

/** Views that answer the browse at once (or when `opened` resolves), counting the reads. */
function fakeViews(opened: Promise<void> = Promise.resolve()) {
  const reads: unknown[] = [];
  const views = () =>
    opened.then(() => ({
      conversationBrowse: (...args: unknown[]) => {
        reads.push(args);
        return Promise.resolve(BROWSE);
      },
    }));
  return { views, reads };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

/** A started browser opened on ?q=moss, once its first search request is out (and unanswered). */
async function searchingMoss() {
  const { backend, calls } = deferredBackend();
  const browser = new ConversationBrowser(backend, fakeViews().views);
  browser.setParams({ q: 'moss' });
  browser.start();
  await vi.waitFor(() => expect(calls).toHaveLength(1));
  return { browser, calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ConversationBrowser', () => {
  it('drops an older answer that arrives after a newer search, and keeps searching true while the newer one waits', async () => {
    const { browser, calls } = await searchingMoss();

    vi.useFakeTimers();
    browser.query = 'moss garden';
    browser.changed(); // debounced: no request yet
    expect(calls).toHaveLength(1);
    calls[0]!.answer(resultFor('old'));
    await vi.advanceTimersByTimeAsync(0);
    // The answer to "moss" arrived during the debounce of "moss garden": dropped, and still searching.
    expect(browser.result).toBeNull();
    expect(browser.searching).toBe(true);

    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.request.query).toBe('moss garden');
    calls[1]!.answer(resultFor('new'));
    await vi.advanceTimersByTimeAsync(0);
    expect(browser.result?.hits[0]!.conversation.title).toBe('new');
    expect(browser.answered).toBe('moss garden');
    expect(browser.searching).toBe(false);
    browser.stop();
  });

  it('an answer for the same words under another filter or sort does not answer the current search', async () => {
    const { browser, calls } = await searchingMoss();
    calls[0]!.answer(resultFor('all sources'));
    await vi.waitFor(() => expect(browser.answersCurrent).toBe(true));

    browser.source = 'claude';
    expect(browser.answersCurrent).toBe(false);
    browser.changed(0);
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.request.filter.sources).toEqual(['claude']);
    calls[1]!.answer(resultFor('claude only'));
    await vi.waitFor(() => expect(browser.answersCurrent).toBe(true));
    browser.sortChoice = 'newest';
    expect(browser.answersCurrent).toBe(false);
    browser.stop();
  });

  it('Enter before the answer arrives opens the first hit once it does; typing on cancels that', async () => {
    const { browser, calls } = await searchingMoss();
    browser.submit();
    expect(browser.openFirst).toBe(true);
    expect(browser.answersCurrent).toBe(false);
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    calls[1]!.answer(resultFor('first'));
    await vi.waitFor(() => expect(browser.answersCurrent && !browser.searching).toBe(true));
    expect(browser.openFirst).toBe(true);

    browser.query = 'moss wall';
    browser.changed();
    expect(browser.openFirst).toBe(false);
    browser.stop();
  });

  it('a first load with a query still reads the sources the Source filter lists', async () => {
    const { backend } = deferredBackend();
    const { views, reads } = fakeViews();
    const browser = new ConversationBrowser(backend, views);
    browser.setParams({ q: 'moss', source: 'claude' });
    browser.start();
    await vi.waitFor(() => expect(browser.browse?.sources).toEqual(['chatgpt', 'claude']));
    // Typing more words does not read the browse again; a filter change does.
    browser.query = 'moss wall';
    browser.changed();
    browser.hasDecisions = true;
    browser.changed(0);
    await vi.waitFor(() => expect(reads).toHaveLength(2));
    browser.stop();
  });

  it('stop() before the views open subscribes nothing; a second start supersedes the first', async () => {
    let open!: () => void;
    const { views, reads } = fakeViews(new Promise<void>((r) => (open = r)));
    const browser = new ConversationBrowser(deferredBackend().backend, views);
    browser.start();
    browser.stop();
    open();
    await settle();
    await settle();
    expect(reads).toHaveLength(0);
    expect(browser.browse).toBeNull();

    browser.start();
    browser.source = 'claude';
    browser.changed(0);
    await vi.waitFor(() => expect(browser.browse).not.toBeNull());
    await settle();
    // Only the latest filter's browse was subscribed.
    expect(reads).toEqual([[{ sources: ['claude'], from: null, to: null, hasDecisions: false }, 'newest', 200]]);
    browser.stop();
  });
});

describe('the search in the address', () => {
  it('reads only values it knows: an unknown source or sort, or a malformed date, reads as unset', () => {
    expect(parseBrowseParams(new URLSearchParams('q=moss&source=claude&from=2024-01-05&decisions=1&sort=oldest'))).toEqual({
      q: 'moss',
      source: 'claude',
      from: '2024-01-05',
      to: '',
      decisions: true,
      sort: 'oldest',
    });
    const odd = parseBrowseParams(new URLSearchParams('source=myspace&sort=random&to=5%20March&decisions=yes'));
    expect([odd.source, odd.sort, odd.to, odd.decisions]).toEqual(['', '', '', false]);
  });

  it('writes the whole search, unset values left out, and reads back the same', () => {
    const params = {
      q: ' moss & stones ',
      source: 'chatgpt' as const,
      from: '',
      to: '2024-06-30',
      decisions: true,
      sort: 'largest' as const,
    };
    const search = browseSearch(params);
    expect(search).toBe('q=moss%20%26%20stones&source=chatgpt&to=2024-06-30&decisions=1&sort=largest');
    expect(parseBrowseParams(new URLSearchParams(search))).toEqual({ ...params, q: 'moss & stones' });
  });
});
