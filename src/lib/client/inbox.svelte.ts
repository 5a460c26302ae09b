import { liveQuery, type Subscription } from 'dexie';
import type { ActionOutcome, KeepRequest } from '../core/api/vault-api';
import {
  countInbox,
  DEFAULT_REVIEW_SIZE,
  filterGroups,
  firstCandidates,
  startOfDay,
  type InboxCounts,
  type InboxReview,
} from '../core/curate/inbox-order';
import { keepBlocks } from '../core/curate/keep-gate';
import type { QualityFlag } from '../core/curate/quality-gate';
import { vaultViews, type InboxGroup, type InboxItem } from '../store/views/vault-views';
import { errors } from './errors.svelte';
import { vaultWorker } from './vault-worker';

export type { InboxGroup, InboxItem } from '../store/views/vault-views';

/** What the Inbox lists: the "review N today" queue, or every candidate (filtered by a count). */
export type InboxMode = 'today' | 'all';
export interface InboxFilter {
  category?: string;
  conversationId?: string | null;
}

/** The undo toast: what was done, and the history entries that undo it. */
export interface UndoOffer {
  id: number;
  label: string;
  historyIds: string[];
}

/**
 * The Inbox's state: live candidates in worth order, their counts, the "review N today" queue
 * (N and where the person stopped are a device preference written through the vault worker; the
 * count reviewed today is read from the history), the actions and the undo offers. Candidates
 * never reviewed stay provisional: recall still finds them at chat weight.
 */
export class InboxController {
  /** Every candidate, grouped, in worth order. */
  all = $state<InboxGroup[]>([]);
  loaded = $state(false);
  offers = $state<UndoOffer[]>([]);
  busy = $state(false);
  mode = $state<InboxMode>('today');
  filter = $state<InboxFilter>({});
  review = $state<InboxReview>({ size: DEFAULT_REVIEW_SIZE, cursorId: null });
  reviewedToday = $state(0);
  /** The queue setting has been read (the saved position can be restored). */
  reviewLoaded = $state(false);
  /** What the last keep left out or refused (the quality gate): shown until the next action. */
  notice = $state<string | null>(null);
  private subscriptions: Subscription[] = [];
  private seq = 0;
  private cursorTimer: ReturnType<typeof setTimeout> | null = null;

  start(now: () => number = Date.now): void {
    if (this.subscriptions.length > 0) return;
    void vaultViews().then((views) => {
      const report = (what: string) => (error: unknown) => errors.report(error, what);
      this.subscriptions = [
        liveQuery(() => views.inbox()).subscribe({
          next: (groups) => {
            this.all = groups;
            this.loaded = true;
          },
          error: report('reading the Inbox'),
        }),
        liveQuery(() => views.reviewedSince(startOfDay(now()))).subscribe({
          next: (n) => (this.reviewedToday = n),
          error: report('reading what was reviewed today'),
        }),
        liveQuery(() => views.setting('device.inbox.review')).subscribe({
          next: (review) => {
            this.review = review;
            this.reviewLoaded = true;
          },
          error: report('reading the review queue'),
        }),
      ];
    });
  }

  stop(): void {
    for (const s of this.subscriptions) s.unsubscribe();
    this.subscriptions = [];
  }

  /** Candidates left in today's queue: N less those reviewed today. */
  get leftToday(): number {
    return Math.max(0, this.review.size - this.reviewedToday);
  }

  get counts(): InboxCounts {
    return countInbox(this.all);
  }

  /** The groups on screen: today's queue, or every candidate under the chosen filter. */
  get groups(): InboxGroup[] {
    return this.mode === 'today' ? firstCandidates(this.all, this.leftToday) : filterGroups(this.all, this.filter);
  }

  /** Every candidate on screen in screen order (what j / k walk through). */
  get items(): InboxItem[] {
    return this.groups.flatMap((g) => g.items);
  }

  show(mode: InboxMode, filter: InboxFilter = {}): void {
    this.mode = mode;
    this.filter = filter;
  }

  /** Sets N of "review N today" (the position is kept). */
  async setReviewSize(size: number): Promise<void> {
    try {
      await vaultWorker().call('setPreference', ['device.inbox.review', { ...this.review, size }]);
    } catch (error) {
      errors.report(error, 'setting how many to review a day');
    }
  }

  /** Remembers the candidate the person is at, so the Inbox opens there next time (written once the cursor rests). */
  rememberCursor(id: string | null): void {
    if (id === this.review.cursorId) return;
    if (this.cursorTimer) clearTimeout(this.cursorTimer);
    this.cursorTimer = setTimeout(() => {
      this.cursorTimer = null;
      void vaultWorker()
        .call('setPreference', ['device.inbox.review', { ...this.review, cursorId: id }])
        .catch((error: unknown) => errors.report(error, 'remembering where you stopped'));
    }, 400);
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

  /** The blocking flags of a candidate on screen (core/curate/keep-gate.ts), for the controls and the keys. */
  blocks(item: InboxItem, intent: { text?: string; replaces?: boolean } = {}): QualityFlag[] {
    return keepBlocks(item.note, intent);
  }

  keep(requests: KeepRequest[], label = requests.length > 1 ? `Kept ${requests.length} notes` : 'Kept'): Promise<boolean> {
    this.notice = null;
    return this.act(label, () => vaultWorker().call('keep', [requests.map((r) => ({ ...r }))]));
  }

  /** Keeps one candidate, unless the gate refuses it as it is: then it says why and what to do. */
  keepOne(item: InboxItem, intent: { text?: string; replaces?: boolean } = {}): Promise<boolean> {
    const blocked = this.blocks(item, intent);
    if (blocked.length > 0) {
      this.notice = refusal(blocked);
      return Promise.resolve(false);
    }
    const label = intent.text !== undefined ? 'Edited and kept' : intent.replaces ? 'Kept, replacing the older note' : 'Kept';
    return this.keep([{ id: item.note.id, ...intent }], label);
  }

  /** The requests that keep a whole group: candidates the gate blocks are skipped (split or edit them). */
  groupKeepRequests(group: InboxGroup): KeepRequest[] {
    return group.items.filter((i) => this.blocks(i).length === 0).map((i) => ({ id: i.note.id }));
  }

  async keepGroup(group: InboxGroup): Promise<boolean> {
    const requests = this.groupKeepRequests(group);
    const skipped = group.items.length - requests.length;
    const skippedText = `skipped ${skipped} flagged (split or edit ${skipped === 1 ? 'it' : 'them'} first)`;
    const label = requests.length > 1 ? `Kept ${requests.length} notes` : 'Kept';
    const kept = requests.length > 0 ? await this.keep(requests, skipped > 0 ? `${label}, ${skippedText}` : label) : false;
    // Say what happened: a keep that failed or was refused kept none (its error is shown by the handler).
    if (skipped > 0) this.notice = kept ? `Kept ${requests.length}; ${skippedText}.` : `Kept none: ${skippedText}.`;
    return kept;
  }

  /** Splits a candidate into one candidate per claim (undo brings the original back). */
  split(id: string): Promise<boolean> {
    this.notice = null;
    return this.act('Split into claims', () => vaultWorker().call('split', [id]));
  }

  discardGroup(group: InboxGroup): Promise<boolean> {
    return this.discard(group.items.map((i) => i.note.id));
  }

  discard(ids: string[]): Promise<boolean> {
    this.notice = null;
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

const FLAG_WORDS: Record<QualityFlag, string> = {
  'several-claims': 'it states several claims',
  'too-long': 'it is too long',
  contradicts: 'it contradicts a kept note',
  hedged: 'it is hedged',
  duplicate: 'it duplicates a note',
};

/** Why a keep was refused, and what to do instead. */
export function refusal(flags: readonly QualityFlag[]): string {
  const why = flags.map((f) => FLAG_WORDS[f]).join(' and ');
  const next = flags.includes('several-claims')
    ? 'split it (s) or edit it (e)'
    : flags.includes('contradicts') && flags.length === 1
      ? 'edit it (e) or keep it as replacing the older note'
      : 'edit it (e)';
  return `Not kept as it is: ${why}. ${next[0]!.toUpperCase()}${next.slice(1)}.`;
}

let instance: InboxController | null = null;

export function inbox(): InboxController {
  instance ??= new InboxController();
  return instance;
}
