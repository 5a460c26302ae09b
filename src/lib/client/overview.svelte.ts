import { liveQuery, type Subscription } from 'dexie';
import { vaultViews, type ArchiveOverview } from '../store/views/vault-views';
import type { TopEntity } from '../core/api/index-api';
import { errors } from './errors.svelte';
import { indexer } from './indexer.svelte';

/**
 * The Overview screen's live view of the archive (store/views/overview-view.ts), and the entities
 * the index worker's entity graph finds named in the most conversations.
 */
export class OverviewView {
  data = $state<ArchiveOverview | null>(null);
  /** Null until the index worker has answered once. */
  entities = $state<TopEntity[] | null>(null);
  private subscription: Subscription | null = null;
  private asked = 0;

  /** Asks the index worker again (the page calls it when the archive or the index changed); the newest answer wins. */
  async refreshEntities(): Promise<void> {
    const ask = ++this.asked;
    try {
      const entities = await indexer().topEntities(12);
      if (ask === this.asked) this.entities = entities;
    } catch (error) {
      if (ask === this.asked) errors.report(error, 'reading the entities for the overview');
    }
  }

  start(): void {
    this.stop();
    void vaultViews().then((views) => {
      this.subscription = liveQuery(() => views.overview()).subscribe({
        next: (data) => (this.data = data),
        error: (error: unknown) => errors.report(error, 'reading the overview'),
      });
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = null;
  }
}
