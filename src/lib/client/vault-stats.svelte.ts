import { liveQuery, type Subscription } from 'dexie';
import { mainVault } from './vault';

export interface VaultCounts {
  conversations: number;
  messages: number;
  notes: number;
  inbox: number;
  imports: number;
}

/** Live counts of what the vault holds, for empty states and headers. */
class VaultStats {
  counts = $state<VaultCounts | null>(null);
  private subscription: Subscription | null = null;

  start(): void {
    if (this.subscription) return;
    void mainVault().then((vault) => {
      this.subscription = liveQuery(async () => {
        const [conversations, messages, notes, inbox, imports] = await Promise.all([
          vault.conversations.countVisible(),
          vault.conversations.countMessages(),
          vault.db.notes.where('status').equals('kept').count(),
          vault.db.notes.where('status').equals('provisional').count(),
          vault.db.imports.count(),
        ]);
        return { conversations, messages, notes, inbox, imports };
      }).subscribe({
        next: (counts) => (this.counts = counts),
        error: () => (this.counts = null),
      });
    });
  }
}

export const vaultStats = new VaultStats();
