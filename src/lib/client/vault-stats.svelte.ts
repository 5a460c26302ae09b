import { liveQuery, type Subscription } from 'dexie';
import { vaultViews, type VaultCounts } from '../store/views/vault-views';

export type { VaultCounts } from '../store/views/vault-views';

/** Live counts of what the vault holds, for empty states and headers. */
class VaultStats {
  counts = $state<VaultCounts | null>(null);
  private subscription: Subscription | null = null;

  start(): void {
    if (this.subscription) return;
    void vaultViews().then((views) => {
      this.subscription = liveQuery(() => views.counts()).subscribe({
        next: (counts) => (this.counts = counts),
        error: () => (this.counts = null),
      });
    });
  }
}

export const vaultStats = new VaultStats();
