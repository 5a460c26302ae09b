import type { Transaction } from 'dexie';
import type { MessageRecord } from '../../core/records';

/**
 * Schema version 9: a staged message (new in a conversation the vault held, written by an import
 * that has not published) carries its import's stage key as `stagedBy`, which version 10's sparse
 * index finds it by once the `state` and `importId` indexes are gone. Such rows exist only when an
 * import was interrupted; the startup recovery then removes them by their stage key as before.
 * Read through the `state` index, which this version still has: no walk of every message.
 */
export async function markStagedMessages(tx: Transaction): Promise<void> {
  await tx
    .table<MessageRecord, string>('messages')
    .where('state')
    .equals('staged')
    .modify((m) => {
      m.stagedBy = m.importId;
    });
}
