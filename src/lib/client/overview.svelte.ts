import { liveQuery, type Subscription } from 'dexie';
import { vaultViews, type ArchiveOverview } from '../store/views/vault-views';
import { errors } from './errors.svelte';

/** The Overview screen's live view of the archive (store/views/overview-view.ts). */
export class OverviewView {
  data = $state<ArchiveOverview | null>(null);
  private subscription: Subscription | null = null;

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
