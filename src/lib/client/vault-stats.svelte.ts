import type { VaultCounts } from '../store/views/vault-views';
import { watchView } from './watch-view';

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
  private started = false;

  start(): void {
    if (this.started) return;
    this.started = true;
    const failed = () => (this.counts = null);
    watchView(
      (views) => views.conversationCounts(),
      (value) => this.publish({ conversations: value }),
      failed,
    );
    watchView(
      (views) => views.noteCounts(),
      (value) => this.publish({ notes: value }),
      failed,
    );
    watchView(
      (views) => views.importCount(),
      (value) => this.publish({ imports: value }),
      failed,
    );
  }

  /** Keeps a part; the counts once every part has been read. */
  private publish(part: VaultStats['parts']): void {
    this.parts = { ...this.parts, ...part };
    const { conversations, notes, imports } = this.parts;
    if (conversations && notes && imports !== undefined) this.counts = { ...conversations, ...notes, imports };
  }
}

export const vaultStats = new VaultStats();
