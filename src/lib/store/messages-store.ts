import Dexie, { type Table, type UpdateSpec } from 'dexie';
import type { MessageRecord } from '../core/records';
import type { VaultDb } from './schema';

/**
 * The one path to stored messages: every read and write of the messages table outside the vault
 * file's generic section code goes through here (issue 19).
 *
 * Why one path: a message is one IndexedDB row today, and the row count is what the heavy
 * archive's import waits on. `store.idb_keys` (2026-11-30) wrote 400k messages in 86.1 s as rows
 * under schema 10's one index and in 11.5 s as one row per conversation's 40 messages (16.2 s with
 * a multi-entry index of their ids). A layout of several messages per row changes what these
 * functions do, not what their callers ask. Each works inside the caller's transaction when the
 * caller opened one over `messageTables(db)`.
 */

/** The tables a transaction that reads or writes messages must include. */
export function messageTables(db: VaultDb): Table[] {
  return [db.messages];
}

/** One message by id, or undefined. */
export function getMessage(db: VaultDb, id: string): Promise<MessageRecord | undefined> {
  return db.messages.get(id);
}

/** Messages by id, in the order asked (undefined where none is stored), staged ones included. */
export function getMessages(db: VaultDb, ids: readonly string[]): Promise<(MessageRecord | undefined)[]> {
  return db.messages.bulkGet(ids.slice());
}

/**
 * A conversation's messages by ordinal (the visible thread first, then branches), including staged
 * ones of an import in progress: callers that show them keep `state === 'visible'`.
 */
export function conversationMessages(db: VaultDb, conversationId: string): Promise<MessageRecord[]> {
  return db.messages.where('[conversationId+ordinal]').between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey]).toArray();
}

/** Up to `limit` messages after `afterId` (from the first when null), in id order: a scan that can resume. */
export function messagePage(db: VaultDb, afterId: string | null, limit: number): Promise<MessageRecord[]> {
  return afterId === null
    ? db.messages.orderBy('id').limit(limit).toArray()
    : db.messages.where('id').above(afterId).limit(limit).toArray();
}

/** Every stored message, staged ones included (tests and evaluations over small vaults). */
export function allMessages(db: VaultDb): Promise<MessageRecord[]> {
  return db.messages.toArray();
}

/** Stored messages, staged ones included. */
export function countStoredMessages(db: VaultDb): Promise<number> {
  return db.messages.count();
}

/**
 * Messages of published imports: every stored one less those staged by an unfinished import (new
 * messages of conversations the vault held, which the sparse `stagedBy` index holds alone) and the
 * visible ones of staged conversations (`stagedConversations`: few, only while an import runs).
 */
export async function countPublishedMessages(db: VaultDb, stagedConversations: Iterable<string>): Promise<number> {
  let count = (await db.messages.count()) - (await db.messages.orderBy('stagedBy').count());
  for (const id of stagedConversations)
    count -= await db.messages
      .where('[conversationId+ordinal]')
      .between([id, Dexie.minKey], [id, Dexie.maxKey])
      .filter((m) => m.state === 'visible')
      .count();
  return count;
}

/** Adds new messages (an id already stored is an error). */
export async function addMessages(db: VaultDb, rows: readonly MessageRecord[]): Promise<void> {
  if (rows.length) await db.messages.bulkAdd(rows.slice());
}

/** Adds or replaces messages by id. */
export async function putMessages(db: VaultDb, rows: readonly MessageRecord[]): Promise<void> {
  if (rows.length) await db.messages.bulkPut(rows.slice());
}

/** Changes fields of one stored message; a field set to undefined is removed. */
export async function updateMessage(db: VaultDb, id: string, changes: UpdateSpec<MessageRecord>): Promise<void> {
  await db.messages.update(id, changes);
}

/** Removes every message of a conversation. */
export async function deleteConversationMessages(db: VaultDb, conversationId: string): Promise<void> {
  await db.messages.where('[conversationId+ordinal]').between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey]).delete();
}

/** Removes the messages staged by unfinished imports whose stage key starts with `prefix`. */
export async function deleteStagedMessages(db: VaultDb, prefix: string): Promise<void> {
  await db.messages.where('stagedBy').startsWith(prefix).delete();
}
