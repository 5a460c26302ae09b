import { liveQuery, type Subscription } from 'dexie';
import {
  CONVERSATION_SORTS,
  type ConversationFilter,
  type ConversationSearchRequest,
  type ConversationSearchResult,
  type ConversationSort,
} from '../core/api/conversation-search';
import { toVaultError, type VaultError } from '../core/errors';
import { dayBound } from '../core/conversations/browse';
import { SOURCES, type Source } from '../core/records';
import { vaultViews as openViews, type ConversationBrowse, type VaultViews } from '../store/views/vault-views';
import { errors } from './errors.svelte';
import { indexer } from './indexer.svelte';

/** Conversations listed at once (the total says how many match). */
export const PAGE = 200;
export const SEARCH_DEBOUNCE_MS = 250;

/** What the search needs from the index worker (IndexClient; a fake in tests). */
export interface SearchBackend {
  searchConversations(request: ConversationSearchRequest): Promise<ConversationSearchResult | null>;
}

/** The screen's state as it stands in the address (so Back from a hit returns to the same search). */
export interface BrowseParams {
  q: string;
  source: Source | '';
  from: string;
  to: string;
  decisions: boolean;
  sort: ConversationSort | '';
}

const DAY = /^\d{4}-\d{2}-\d{2}$/u;
const oneOf = <T extends string>(allowed: readonly T[], value: string): T | '' => (allowed.includes(value as T) ? (value as T) : '');

/** The screen's state read from an address: values it does not know read as unset. */
export function parseBrowseParams(search: URLSearchParams): BrowseParams {
  const get = (k: string) => search.get(k) ?? '';
  const day = (k: string) => (DAY.test(get(k)) ? get(k) : '');
  return {
    q: get('q'),
    source: oneOf(SOURCES, get('source')),
    from: day('from'),
    to: day('to'),
    decisions: get('decisions') === '1',
    sort: oneOf(CONVERSATION_SORTS, get('sort')),
  };
}

/** The screen's state as an address's query, unset values left out ("q=moss&source=claude"): what Back returns to. */
export function browseSearch(p: BrowseParams): string {
  const pairs: [string, string][] = [
    ['q', p.q.trim()],
    ['source', p.source],
    ['from', p.from],
    ['to', p.to],
    ['decisions', p.decisions ? '1' : ''],
    ['sort', p.sort],
  ];
  return pairs
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
}

/**
 * The Conversations screen: without a query, every visible conversation under the filters, live
 * (store/views); with one, the index worker's full-text search (debounced while typing, Enter runs
 * it at once, an older answer arriving late is dropped). The live browse runs either way: the
 * Source filter lists the sources it reads. Sort "relevance" is the default while searching and
 * reads as "newest" when browsing.
 */
export class ConversationBrowser {
  query = $state('');
  source = $state<Source | ''>('');
  from = $state('');
  to = $state('');
  hasDecisions = $state(false);
  /** '' : the default (relevance when searching, newest when browsing). */
  sortChoice = $state<ConversationSort | ''>('');
  browse = $state<ConversationBrowse | null>(null);
  result = $state<ConversationSearchResult | null>(null);
  /** The query the result answers. */
  answered = $state('');
  searching = $state(false);
  error = $state<VaultError | null>(null);
  /** Enter was pressed: open the first hit once the answer to what is typed now is on screen. */
  openFirst = $state(false);
  /** The query, filter and sort the result answers (searchKey of that request). */
  private answeredKey = $state('');

  private subscription: Subscription | null = null;
  /** The filter and sort the browse subscription serves (null: none). */
  private browseKey: string | null = null;
  /** Bumped by every subscribe and by stop(): a views promise resolving after it subscribes nothing. */
  private watches = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped by every change and search: an answer for an older run is dropped. */
  private runs = 0;

  constructor(
    private readonly backend: SearchBackend = { searchConversations: (r) => indexer().searchConversations(r) },
    private readonly views: () => Promise<Pick<VaultViews, 'conversationBrowse'>> = openViews,
  ) {}

  get sort(): ConversationSort {
    return this.sortChoice || (this.query.trim() ? 'relevance' : 'newest');
  }

  get filter(): ConversationFilter {
    return {
      sources: this.source ? [this.source] : [],
      from: dayBound(this.from, 'start'),
      to: dayBound(this.to, 'end'),
      hasDecisions: this.hasDecisions,
    };
  }

  get filtered(): boolean {
    return this.source !== '' || this.from !== '' || this.to !== '' || this.hasDecisions;
  }

  get params(): BrowseParams {
    return { q: this.query, source: this.source, from: this.from, to: this.to, decisions: this.hasDecisions, sort: this.sortChoice };
  }

  /** What a search request depends on: the query, the filter and the sort. */
  get searchKey(): string {
    return JSON.stringify([this.query.trim(), this.filter, this.sort]);
  }

  /** The result on screen answers the query, filter and sort as they are now. */
  get answersCurrent(): boolean {
    return this.result !== null && this.answeredKey === this.searchKey;
  }

  setParams(p: Partial<BrowseParams>): void {
    this.query = p.q ?? '';
    this.source = p.source ?? '';
    this.from = p.from ?? '';
    this.to = p.to ?? '';
    this.hasDecisions = p.decisions ?? false;
    this.sortChoice = p.sort ?? '';
  }

  start(): void {
    this.changed(0);
  }

  stop(): void {
    this.watches++;
    this.runs++;
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.browseKey = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.searching = false;
    this.openFirst = false;
  }

  /** Filters, sort or query changed: browse again, and search after `delay` (0: now). */
  changed(delay = SEARCH_DEBOUNCE_MS): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // Whatever is in flight answers what was asked before: drop it (and leave `searching` to the new run).
    this.runs++;
    this.error = null;
    this.openFirst = false;
    this.watchBrowse();
    if (!this.query.trim()) {
      this.result = null;
      this.answered = '';
      this.answeredKey = '';
      this.searching = false;
      return;
    }
    this.searching = true;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.search();
    }, delay);
  }

  /** Enter in the box: open the first hit of the answer to what is typed now (at once, or when it arrives). */
  submit(): void {
    const waiting = !this.answersCurrent || this.searching;
    if (waiting) this.changed(0);
    if (this.query.trim()) this.openFirst = true;
  }

  /** The index grew: run the current search again (no-op when browsing: the list is live). */
  refresh(): void {
    if (this.query.trim() && this.timer === null && !this.searching) this.changed(1_000);
  }

  private watchBrowse(): void {
    const filter = this.filter;
    const sort = this.sort === 'relevance' ? 'newest' : this.sort;
    const key = JSON.stringify([filter, sort]);
    if (key === this.browseKey) return;
    this.browseKey = key;
    const watch = ++this.watches;
    this.subscription?.unsubscribe();
    this.subscription = null;
    const failed = (error: unknown) => {
      if (watch !== this.watches) return;
      this.browseKey = null; // the next change tries again
      this.error = toVaultError(error);
      errors.report(error, 'listing conversations');
    };
    void this.views().then((views) => {
      if (watch !== this.watches) return; // stopped, or the filters changed while the views opened
      this.subscription = liveQuery(() => views.conversationBrowse(filter, sort, PAGE)).subscribe({
        next: (browse) => (this.browse = browse),
        error: failed,
      });
    }, failed);
  }

  private async search(): Promise<void> {
    const run = ++this.runs;
    const query = this.query.trim();
    const key = this.searchKey;
    this.searching = true;
    try {
      const result = await this.backend.searchConversations({ query, filter: this.filter, sort: this.sort, limit: PAGE });
      if (result === null || run !== this.runs) return;
      this.result = result;
      this.answered = query;
      this.answeredKey = key;
    } catch (error) {
      if (run !== this.runs) return;
      this.error = toVaultError(error);
    } finally {
      if (run === this.runs) this.searching = false;
    }
  }
}
