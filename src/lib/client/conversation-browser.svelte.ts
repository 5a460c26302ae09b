import { liveQuery, type Subscription } from 'dexie';
import type {
  ConversationFilter,
  ConversationSearchRequest,
  ConversationSearchResult,
  ConversationSort,
} from '../core/api/conversation-search';
import { toVaultError, type VaultError } from '../core/errors';
import { dayBound } from '../core/conversations/browse';
import type { Source } from '../core/records';
import { vaultViews, type ConversationBrowse } from '../store/views/vault-views';
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

/**
 * The Conversations screen: without a query, every visible conversation under the filters, live
 * (store/views); with one, the index worker's full-text search (debounced while typing, Enter runs
 * it at once, an older answer arriving late is dropped). Sort "relevance" is the default while
 * searching and reads as "newest" when browsing.
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

  private subscription: Subscription | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private runs = 0;

  constructor(private readonly backend: SearchBackend = { searchConversations: (r) => indexer().searchConversations(r) }) {}

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
    this.subscription?.unsubscribe();
    this.subscription = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Filters, sort or query changed: browse again, or search after `delay` (0: now). */
  changed(delay = SEARCH_DEBOUNCE_MS): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.error = null;
    if (!this.query.trim()) {
      this.runs++;
      this.result = null;
      this.answered = '';
      this.searching = false;
      this.watchBrowse();
      return;
    }
    this.searching = true;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.search();
    }, delay);
  }

  /** The index grew: run the current search again (no-op when browsing: the list is live). */
  refresh(): void {
    if (this.query.trim() && this.timer === null && !this.searching) this.changed(1_000);
  }

  private watchBrowse(): void {
    this.subscription?.unsubscribe();
    const filter = this.filter;
    const sort = this.sort;
    this.subscription = null;
    void vaultViews().then(
      (views) => {
        this.subscription?.unsubscribe();
        this.subscription = liveQuery(() => views.conversationBrowse(filter, sort, PAGE)).subscribe({
          next: (browse) => (this.browse = browse),
          error: (error: unknown) => {
            this.error = toVaultError(error);
            errors.report(error, 'listing conversations');
          },
        });
      },
      (error: unknown) => (this.error = toVaultError(error)),
    );
  }

  private async search(): Promise<void> {
    const run = ++this.runs;
    const query = this.query.trim();
    this.searching = true;
    try {
      const result = await this.backend.searchConversations({ query, filter: this.filter, sort: this.sort, limit: PAGE });
      if (result === null || run !== this.runs) return;
      this.result = result;
      this.answered = query;
    } catch (error) {
      if (run !== this.runs) return;
      this.error = toVaultError(error);
    } finally {
      if (run === this.runs) this.searching = false;
    }
  }
}
