import { liveQuery, type Subscription } from 'dexie';
import type { ActionOutcome, KeepRequest } from '../core/api/vault-api';
import { vaultViews, type InboxGroup, type InboxItem } from '../store/views/vault-views';
import { errors } from './errors.svelte';
import { vaultWorker } from './vault-worker';

export type { InboxGroup, InboxItem } from '../store/views/vault-views';

/** The undo toast: what was done, and the history entries that undo it. */
export interface UndoOffer {
  id: number;
  label: string;
  historyIds: string[];
}

/** The Inbox's state: live candidates, grouped; the actions; the undo offers. */
export class InboxController {
  groups = $state<InboxGroup[]>([]);
  loaded = $state(false);
  offers = $state<UndoOffer[]>([]);
  busy = $state(false);
  private subscription: Subscription | null = null;
  private seq = 0;

  start(): void {
    if (this.subscription) return;
    void vaultViews().then((views) => {
      this.subscription = liveQuery(() => views.inbox()).subscribe({
        next: (groups) => {
          this.groups = groups;
          this.loaded = true;
        },
        error: (error: unknown) => errors.report(error, 'reading the Inbox'),
      });
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = null;
  }

  /** Every candidate in screen order (what j / k walk through). */
  get items(): InboxItem[] {
    return this.groups.flatMap((g) => g.items);
  }

  private async act(label: string, work: () => Promise<ActionOutcome>): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    try {
      const outcome = await work();
      if (outcome.historyIds.length > 0) this.offer(label, outcome.historyIds);
      return outcome.historyIds.length > 0;
    } catch (error) {
      errors.report(error, label.toLowerCase());
      return false;
    } finally {
      this.busy = false;
    }
  }

  private offer(label: string, historyIds: string[]): void {
    this.offers = [...this.offers, { id: ++this.seq, label, historyIds }].slice(-3);
  }

  keep(requests: KeepRequest[], label = requests.length > 1 ? `Kept ${requests.length} notes` : 'Kept'): Promise<boolean> {
    return this.act(label, () => vaultWorker().call('keep', [requests.map((r) => ({ ...r }))]));
  }

  discard(ids: string[]): Promise<boolean> {
    return this.act(ids.length > 1 ? `Discarded ${ids.length}` : 'Discarded', () => vaultWorker().call('discard', [[...ids]]));
  }

  async undo(offerId: number): Promise<void> {
    const offer = this.offers.find((o) => o.id === offerId);
    if (!offer) return;
    this.offers = this.offers.filter((o) => o.id !== offerId);
    await this.act('Undo', async () => {
      await vaultWorker().call('undo', [[...offer.historyIds]]);
      return { historyIds: [], noteIds: [] };
    });
  }

  dismiss(offerId: number): void {
    this.offers = this.offers.filter((o) => o.id !== offerId);
  }
}

let instance: InboxController | null = null;

export function inbox(): InboxController {
  instance ??= new InboxController();
  return instance;
}
