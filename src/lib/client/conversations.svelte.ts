import { liveQuery, type Subscription } from 'dexie';
import type { ConversationRecord, MessageRecord } from '../core/records';
import { conversationBranches, type ConversationBranches } from '../core/conversations/branches';
import { vaultViews, type ConversationInsight, type ConversationLinkCounts } from '../store/views/vault-views';
import { errors } from './errors.svelte';

/**
 * One conversation and its messages: the visible thread, the other branches (switchable on the
 * page), the hidden parts, and how many candidates and kept notes came from it.
 */
export class ConversationView {
  conversation = $state<ConversationRecord | null | undefined>(undefined);
  thread = $state<MessageRecord[]>([]);
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
  /** Bumped by start and stop: views that open after a later start or a stop subscribe nothing. */
  private generation = 0;

  start(id: string): void {
    this.stop();
    const generation = this.generation;
    void vaultViews().then(
      (views) => {
        if (generation !== this.generation) return;
        this.insightSubscription = liveQuery(() => views.insight(id)).subscribe({
          next: (insight) => (this.insight = insight),
          error: (error: unknown) => errors.report(error, 'reading the summary and thread of a conversation'),
        });
        this.subscription = liveQuery(() => views.conversation(id)).subscribe({
          next: ({ conversation, messages }) => {
            this.conversation = conversation;
            this.thread = messages.filter((m) => m.branch.onVisiblePath && !m.hidden && m.state === 'visible');
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
      },
      (error: unknown) => errors.report(error, 'reading a conversation'),
    );
  }

  stop(): void {
    this.generation++;
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.insightSubscription?.unsubscribe();
    this.insightSubscription = null;
    this.linksSubscription?.unsubscribe();
    this.linksSubscription = null;
  }
}
