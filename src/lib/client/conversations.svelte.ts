import { liveQuery, type Subscription } from 'dexie';
import type { ConversationRecord, MessageRecord } from '../core/records';
import { conversationBranches, type ConversationBranches } from '../core/conversations/branches';
import { vaultViews, type ConversationInsight, type ConversationLinkCounts } from '../store/views/vault-views';
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

/**
 * One conversation and its messages: the visible thread, the other branches (switchable on the
 * page), the hidden parts, and how many candidates and kept notes came from it.
 */
export class ConversationView {
  conversation = $state<ConversationRecord | null | undefined>(undefined);
  thread = $state<MessageRecord[]>([]);
  kept = $state<MessageRecord[]>([]);
  /** The visible thread and every other branch (core/conversations/branches.ts). */
  branches = $state<ConversationBranches<MessageRecord> | null>(null);
  /** Hidden parts (system notes, tool calls the source did not show). */
  hidden = $state<MessageRecord[]>([]);
  links = $state<ConversationLinkCounts | null>(null);
  private linksSubscription: Subscription | null = null;
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
          const shown = messages.filter((m) => m.state === 'visible');
          this.branches = conversationBranches(shown);
          this.hidden = shown.filter((m) => m.hidden);
        },
        error: (error: unknown) => errors.report(error, 'reading a conversation'),
      });
      this.linksSubscription = liveQuery(() => views.conversationLinks(id)).subscribe({
        next: (links) => (this.links = links),
        error: (error: unknown) => errors.report(error, 'counting the notes of a conversation'),
      });
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.insightSubscription?.unsubscribe();
    this.insightSubscription = null;
    this.linksSubscription?.unsubscribe();
    this.linksSubscription = null;
  }
}
