import type { ConversationRecord, MessageRecord } from '../core/records';
import { conversationMessages, messageTables, putMessages } from './messages-store';
import type { VaultDb } from './schema';
import { runTx, withStoreTimeout, type TxOptions } from './transaction';

/** Rows per transaction for bulk writes: large enough to amortize a commit, small enough to bound memory. */
export const WRITE_BATCH = 1_000;

/** Conversations and their messages. Views only ever see rows whose import has completed. */
export class ConversationsRepo {
  constructor(
    private readonly db: VaultDb,
    private readonly tx: TxOptions = {},
  ) {}

  get(id: string): Promise<ConversationRecord | undefined> {
    return withStoreTimeout(this.db.conversations.get(id), { ...this.tx, label: 'reading a conversation' });
  }

  /**
   * Visible conversations, newest first (by last update, else creation; undated ones last). Sorted
   * here rather than by index: conversations without dates are absent from a date index.
   */
  async listVisible(limit = 200, offset = 0): Promise<ConversationRecord[]> {
    const rows = await withStoreTimeout(this.db.conversations.where('state').equals('visible').toArray(), {
      ...this.tx,
      label: 'listing conversations',
    });
    const when = (c: ConversationRecord) => c.updatedAt ?? c.createdAt ?? -Infinity;
    rows.sort((a, b) => when(b) - when(a) || a.title.localeCompare(b.title));
    return rows.slice(offset, offset + limit);
  }

  countVisible(): Promise<number> {
    return withStoreTimeout(this.db.conversations.where('state').equals('visible').count(), {
      ...this.tx,
      label: 'counting conversations',
    });
  }

  /**
   * Messages on the visible threads of visible conversations. A message is visible when its
   * conversation is (a new conversation's messages are hidden by their staged conversation).
   */
  async countMessages(): Promise<number> {
    const rows = await withStoreTimeout(this.db.conversations.where('state').equals('visible').toArray(), {
      ...this.tx,
      label: 'counting messages',
    });
    return rows.reduce((n, c) => n + c.messageCount, 0);
  }

  /**
   * The messages of a conversation in thread order (visible path and other branches), including
   * staged ones of an import in progress: callers show only `state === 'visible'`.
   */
  messages(conversationId: string): Promise<MessageRecord[]> {
    return withStoreTimeout(conversationMessages(this.db, conversationId), { ...this.tx, label: 'reading messages' });
  }

  /** Writes messages in bounded batches, one transaction each; `onBatch` reports rows written. */
  async putMessages(rows: readonly MessageRecord[], onBatch?: (written: number) => void): Promise<void> {
    for (let start = 0; start < rows.length; start += WRITE_BATCH) {
      const batch = rows.slice(start, start + WRITE_BATCH);
      await runTx(this.db, 'rw', messageTables(this.db), () => putMessages(this.db, batch), { ...this.tx, label: 'saving messages' });
      onBatch?.(start + batch.length);
    }
  }

  putConversations(rows: readonly ConversationRecord[]): Promise<void> {
    return runTx(this.db, 'rw', this.db.conversations, async () => void (await this.db.conversations.bulkPut(rows.slice())), {
      ...this.tx,
      label: 'saving conversations',
    });
  }
}
