import { liveQuery, type Subscription } from 'dexie';
import { vaultViews, type VaultCounts } from '../store/views/vault-views';

export type { VaultCounts } from '../store/views/vault-views';

/**
 * Live counts of what the vault holds, for empty states and headers: three live queries (the
 * conversations, the notes, the imports), so a write to one table re-reads only its own counts.
 */
class VaultStats {
  counts = $state<VaultCounts | null>(null);
  private parts: {
    conversations?: Pick<VaultCounts, 'conversations' | 'messages'>;
    notes?: Pick<VaultCounts, 'notes' | 'inbox'>;
    imports?: number;
  } = {};
  private subscriptions: Subscription[] | null = null;

  start(): void {
    if (this.subscriptions) return;
    this.subscriptions = [];
    void vaultViews().then((views) => {
      const watch = <T>(read: () => Promise<T>, keep: (value: T) => void) =>
        this.subscriptions!.push(
          liveQuery(read).subscribe({
            next: (value) => {
              keep(value);
              this.publish();
            },
            error: () => (this.counts = null),
          }),
        );
      watch(
        () => views.conversationCounts(),
        (value) => (this.parts.conversations = value),
      );
      watch(
        () => views.noteCounts(),
        (value) => (this.parts.notes = value),
      );
      watch(
        () => views.importCount(),
        (value) => (this.parts.imports = value),
      );
    });
  }

  /** The counts once every part has been read. */
  private publish(): void {
    const { conversations, notes, imports } = this.parts;
    if (conversations && notes && imports !== undefined) this.counts = { ...conversations, ...notes, imports };
  }
}

export const vaultStats = new VaultStats();
