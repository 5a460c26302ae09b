import { liveQuery, type Subscription } from 'dexie';
import { readOverview, type ArchiveOverview } from '../store/overview-source';
import { errors } from './errors.svelte';
import { mainVault } from './vault';

/** The Overview screen's live view of the archive (store/overview-source.ts). */
export class OverviewView {
  data = $state<ArchiveOverview | null>(null);
  private subscription: Subscription | null = null;

  start(): void {
    this.stop();
    void mainVault().then((vault) => {
      this.subscription = liveQuery(() => readOverview(vault)).subscribe({
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
