import { liveQuery, type Subscription } from 'dexie';
import type { ConversationRecord, MessageRecord } from '../core/records';
import { vaultViews, type ConversationInsight } from '../store/views/vault-views';
import { errors } from './errors.svelte';

/** Live list of the visible conversations, newest first. */
export class ConversationList {
  items = $state<ConversationRecord[] | null>(null);
  private subscription: Subscription | null = null;

  start(limit = 500): void {
    void vaultViews().then((views) => {
      this.subscription = liveQuery(() => views.conversations(limit)).subscribe({
        next: (rows) => (this.items = rows),
        error: (error: unknown) => errors.report(error, 'listing conversations'),
      });
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
  }
}

/** One conversation and its messages (visible thread first, then kept branches and hidden ones). */
export class ConversationView {
  conversation = $state<ConversationRecord | null | undefined>(undefined);
  thread = $state<MessageRecord[]>([]);
  kept = $state<MessageRecord[]>([]);
  /** The session summary and the thread across sessions on the same subject (after extraction). */
  insight = $state<ConversationInsight | null>(null);
  private subscription: Subscription | null = null;
  private insightSubscription: Subscription | null = null;

  start(id: string): void {
    this.stop();
    void vaultViews().then((views) => {
      this.insightSubscription = liveQuery(() => views.insight(id)).subscribe({
        next: (insight) => (this.insight = insight),
        error: (error: unknown) => errors.report(error, 'reading the summary and thread of a conversation'),
      });
      this.subscription = liveQuery(() => views.conversation(id)).subscribe({
        next: ({ conversation, messages }) => {
          this.conversation = conversation;
          this.thread = messages.filter((m) => m.branch.onVisiblePath && !m.hidden && m.state === 'visible');
          this.kept = messages.filter((m) => (!m.branch.onVisiblePath || m.hidden) && m.state === 'visible');
        },
        error: (error: unknown) => errors.report(error, 'reading a conversation'),
      });
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.insightSubscription?.unsubscribe();
    this.insightSubscription = null;
  }
}
