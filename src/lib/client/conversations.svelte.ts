import { liveQuery, type Subscription } from 'dexie';
import type { ConversationRecord, MessageRecord } from '../core/records';
import { conversationInsight, type ConversationInsight } from '../store/conversation-insight';
import { errors } from './errors.svelte';
import { mainVault } from './vault';

/** Live list of the visible conversations, newest first. */
export class ConversationList {
  items = $state<ConversationRecord[] | null>(null);
  private subscription: Subscription | null = null;

  start(limit = 500): void {
    void mainVault().then((vault) => {
      this.subscription = liveQuery(() => vault.conversations.listVisible(limit)).subscribe({
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
    void mainVault().then((vault) => {
      this.insightSubscription = liveQuery(() => conversationInsight(vault, id)).subscribe({
        next: (insight) => (this.insight = insight),
        error: (error: unknown) => errors.report(error, 'reading the summary and thread of a conversation'),
      });
      this.subscription = liveQuery(async () => {
        const conversation = await vault.conversations.get(id);
        const messages = conversation?.state === 'visible' ? await vault.conversations.messages(id) : [];
        return { conversation: conversation?.state === 'visible' ? conversation : null, messages };
      }).subscribe({
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
