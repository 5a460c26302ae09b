import Dexie, { type Table, type UpdateSpec } from 'dexie';
import type { MessageBlockRecord, MessageRecord } from '../core/records';

/**
 * The one path to stored messages (issue 19): every read of messages goes through here, and every
 * write but the vault file's merge and restore, which write rows through their generic section code
 * after taking the ids out of their blocks here (`detachFromBlocks`).
 *
 * Two layouts live side by side:
 * - **blocks** (`messageBlocks`, schema version 11): an import writes a new conversation's messages
 *   as rows of up to MESSAGE_BLOCK_SIZE messages, found by conversation or by any of their ids (a
 *   multi-entry index). The row count, not the bytes, is what a large import waits on: raw
 *   IndexedDB in Chromium wrote 400k messages in 86.1 s as rows under schema 10's one index and in
 *   16.2 s as blocks of 40 under the message-id index (`store.idb_keys`, 2026-11-30).
 * - **rows** (`messages`): one per message. Messages stored before version 11 stay rows; so do a
 *   grown conversation's new messages while their import is staged (`stagedBy`), messages a vault
 *   file merges or restores, and any message changed one at a time (a change takes it out of its
 *   block: a row is cheaper to rewrite than a block).
 *
 * A message id is in exactly one place: a write that makes a row first takes the id out of its
 * block (`detachFromBlocks`). Each function works inside the caller's transaction when the caller
 * opened one over `messageTables(db)`; code that holds its transaction's tables explicitly passes
 * `boundMessageTables()`.
 */

/** The two tables behind the messages (a VaultDb is one; so is a transaction's pair). */
export interface MessageTables {
  messages: Table<MessageRecord, string>;
  messageBlocks: Table<MessageBlockRecord, string>;
}

/** Messages per block: one block holds a typical conversation, and a block read stays small. */
export const MESSAGE_BLOCK_SIZE = 64;

/** The tables a transaction that reads or writes messages must include. */
export function messageTables(db: MessageTables): Table[] {
  return [db.messages, db.messageBlocks] as Table[];
}

/** The message tables of the current Dexie transaction, whatever the zone. */
export function boundMessageTables(): MessageTables {
  const tx = Dexie.currentTransaction;
  if (!tx) throw new Error('boundMessageTables() must be called inside a Dexie transaction');
  return { messages: tx.table('messages'), messageBlocks: tx.table('messageBlocks') };
}

/*
 * Every function below returns a Dexie promise chain, never a plain async function's promise:
 * Dexie finds the current transaction through a zone that layers of plain async functions lose
 * (the transaction then commits before its callback ends: "Transaction committed too early"),
 * while a Dexie promise's callbacks run in the zone it was made in, as a table request's do.
 */

const resolved = <T>(value: T): Promise<T> => Dexie.Promise.resolve(value) as Promise<T>;

/**
 * The blocks holding any of `ids` (each once). Each id's block is found by its own key-only request
 * on the multi-entry index, all sent at once, then the blocks are read once each: a Dexie `anyOf`
 * on that index walks a cursor, one round trip per id, and reading a block per id would read a
 * conversation's block once for each of its messages.
 */
function blocksHolding(db: MessageTables, ids: readonly string[]): Promise<MessageBlockRecord[]> {
  if (ids.length === 0) return resolved([]);
  const lookups = [...new Set(ids)].map((id) => db.messageBlocks.where('messageIds').equals(id).primaryKeys());
  return (Dexie.Promise.all(lookups) as Promise<string[][]>).then((keys) => {
    const blockIds = [...new Set(keys.flat())];
    if (blockIds.length === 0) return [];
    return db.messageBlocks.bulkGet(blockIds).then((blocks) => blocks.filter((block): block is MessageBlockRecord => block !== undefined));
  });
}

/** One message by id, or undefined. */
export function getMessage(db: MessageTables, id: string): Promise<MessageRecord | undefined> {
  return db.messages.get(id).then(
    (row) =>
      row ??
      db.messageBlocks
        .where('messageIds')
        .equals(id)
        .first()
        .then((block) => block?.messages[block.messageIds.indexOf(id)]),
  );
}

/** Messages by id, in the order asked (undefined where none is stored), staged ones included. */
export function getMessages(db: MessageTables, ids: readonly string[]): Promise<(MessageRecord | undefined)[]> {
  return db.messages.bulkGet(ids.slice()).then((rows) => {
    const missing = [...new Set(ids.filter((_, i) => rows[i] === undefined))];
    if (missing.length === 0) return rows;
    return blocksHolding(db, missing).then((blocks) => {
      const inBlocks = new Map<string, MessageRecord>();
      for (const block of blocks) for (const message of block.messages) inBlocks.set(message.id, message);
      return rows.map((row, i) => row ?? inBlocks.get(ids[i]!));
    });
  });
}

/**
 * A conversation's messages by ordinal (the visible thread first, then branches), including staged
 * ones of an import in progress: callers that show them keep `state === 'visible'`.
 */
export function conversationMessages(db: MessageTables, conversationId: string): Promise<MessageRecord[]> {
  return db.messages
    .where('[conversationId+ordinal]')
    .between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey])
    .toArray()
    .then((rows) =>
      db.messageBlocks
        .where('conversationId')
        .equals(conversationId)
        .toArray()
        .then((blocks) =>
          blocks.length === 0 ? rows : [...rows, ...blocks.flatMap((block) => block.messages)].sort((a, b) => a.ordinal - b.ordinal),
        ),
    );
}

/** Where a scan of every message stands: the rows first (by id), then the blocks (by block id). */
export interface MessageScanPosition {
  phase: 'rows' | 'blocks';
  /** The last row id (phase rows) or block id (phase blocks) read; null before the first. */
  after: string | null;
}

type ScanPage = { messages: MessageRecord[]; next: MessageScanPosition | null };

/**
 * The next page of a scan over every stored message (`position` null: from the start); `next` is
 * null, and `messages` empty, after the last page. A page holds up to `limit` rows, or up to
 * `limit` messages' worth of blocks (at least one block).
 */
export function messagePage(db: MessageTables, position: MessageScanPosition | null, limit: number): Promise<ScanPage> {
  const at: MessageScanPosition = position ?? { phase: 'rows', after: null };
  const blocksPage = (after: string | null): Promise<ScanPage> => {
    const blockLimit = Math.max(1, Math.floor(limit / MESSAGE_BLOCK_SIZE));
    const query = after === null ? db.messageBlocks.orderBy('id') : db.messageBlocks.where('id').above(after);
    return query
      .limit(blockLimit)
      .toArray()
      .then((blocks) =>
        blocks.length === 0
          ? { messages: [], next: null }
          : {
              messages: blocks.flatMap((block) => block.messages),
              next: { phase: 'blocks' as const, after: blocks[blocks.length - 1]!.id },
            },
      );
  };
  if (at.phase === 'blocks') return blocksPage(at.after);
  const query = at.after === null ? db.messages.orderBy('id') : db.messages.where('id').above(at.after);
  return query
    .limit(limit)
    .toArray()
    .then((rows) =>
      rows.length > 0 ? { messages: rows, next: { phase: 'rows' as const, after: rows[rows.length - 1]!.id } } : blocksPage(null),
    );
}

/**
 * Calls `fn` with every stored message, a page at a time (`messagePage`: rows, then blocks), until
 * `fn` returns true; says whether it did. Outside a transaction only: it adds a layer of plain
 * async functions, which loses a transaction's zone (a transaction pages with `messagePage`).
 */
export async function scanMessages(
  db: MessageTables,
  limit: number,
  fn: (messages: MessageRecord[]) => boolean | void | Promise<boolean | void>,
): Promise<boolean> {
  for (let position: MessageScanPosition | null = null; ;) {
    const page = await messagePage(db, position, limit);
    if (page.next === null) return false;
    position = page.next;
    if ((await fn(page.messages)) === true) return true;
  }
}

/** Every stored message, staged ones included (tests and evaluations over small vaults). */
export function allMessages(db: MessageTables): Promise<MessageRecord[]> {
  return db.messages
    .toArray()
    .then((rows) => db.messageBlocks.toArray().then((blocks) => [...rows, ...blocks.flatMap((block) => block.messages)]));
}

/**
 * Stored messages, staged ones included: the rows, and the blocks' sizes summed from their index
 * (one key per block; counting the multi-entry index walks an entry per message, 5.1-5.6 s for
 * 400k in Chromium).
 */
export function countStoredMessages(db: MessageTables): Promise<number> {
  return db.messages.count().then((rows) =>
    db.messageBlocks
      .orderBy('size')
      .keys()
      .then((sizes) => sizes.reduce<number>((sum, size) => sum + Number(size), rows)),
  );
}

/**
 * Messages of published imports: every stored one less those staged by an unfinished import (new
 * messages of conversations the vault held, which the sparse `stagedBy` index holds alone) and the
 * visible ones of staged conversations (`stagedConversations`: few, only while an import runs).
 */
export function countPublishedMessages(db: MessageTables, stagedConversations: Iterable<string>): Promise<number> {
  const start = countStoredMessages(db).then((stored) =>
    db.messages
      .orderBy('stagedBy')
      .count()
      .then((staged) => stored - staged),
  );
  return [...stagedConversations].reduce(
    (count, id) =>
      count.then((n) => conversationMessages(db, id).then((messages) => n - messages.filter((m) => m.state === 'visible').length)),
    start,
  );
}

let blockCounter = 0;
let blockTime = 0;

/**
 * A new block's key: the time and a counter first, so blocks are keyed in the order they are
 * written, then its first message's id, which makes the key unique. IndexedDB in Chromium (a
 * LevelDB) writes keys in order faster than keys at random places of a growing table: 400k
 * messages in blocks of 40 under the message-id index took 34.7 s keyed in order against 39.8 s
 * keyed by a hash (medians of four runs in two invocations; `store.idb_keys`, layouts
 * `blocks_random_ids_sequential` and `blocks_random_ids`, 2026-12-02; README, "Block keys in write
 * order"). Nothing reads meaning from a block's key: blocks are found by conversation or by
 * message id, and scans page by key.
 */
function blockKey(firstMessageId: string): string {
  // Never behind the last key's time, should the clock step back.
  blockTime = Math.max(blockTime, Date.now());
  const time = blockTime.toString(36).padStart(9, '0');
  const count = (blockCounter++ % 36 ** 4).toString(36).padStart(4, '0');
  return `blk_${time}${count}_${firstMessageId}`;
}

/**
 * Adds new messages; the caller makes sure no id is stored yet (an import's ids derive from its
 * conversation and the source's ids, and it reads what a conversation holds first). Staged ones
 * (`stagedBy`) become rows; the others go into blocks per conversation, in the order given.
 */
export function addMessages(db: MessageTables, rows: readonly MessageRecord[]): Promise<void> {
  const single = rows.filter((row) => row.stagedBy !== undefined);
  const byConversation = new Map<string, MessageRecord[]>();
  for (const row of rows) {
    if (row.stagedBy !== undefined) continue;
    const list = byConversation.get(row.conversationId) ?? [];
    list.push(row);
    byConversation.set(row.conversationId, list);
  }
  const blocks: MessageBlockRecord[] = [];
  for (const [conversationId, list] of byConversation) {
    for (let at = 0; at < list.length; at += MESSAGE_BLOCK_SIZE) {
      const messages = list.slice(at, at + MESSAGE_BLOCK_SIZE);
      blocks.push({
        id: blockKey(messages[0]!.id),
        conversationId,
        messageIds: messages.map((m) => m.id),
        messages,
        size: messages.length,
      });
    }
  }
  return (single.length ? db.messages.bulkAdd(single) : resolved(undefined))
    .then(() => (blocks.length ? db.messageBlocks.bulkAdd(blocks) : undefined))
    .then(() => undefined);
}

/**
 * Takes `ids` out of the blocks that hold them, returning those messages (a block left empty is
 * deleted). `beforeChange` sees each block as it was, first: a checkpoint logs it there (through
 * tables bound to the transaction, as the vault-file commit holds them).
 */
export function detachFromBlocks(
  db: MessageTables,
  ids: readonly string[],
  beforeChange?: (blocks: readonly MessageBlockRecord[]) => Promise<void>,
): Promise<MessageRecord[]> {
  return blocksHolding(db, ids).then((blocks) => {
    if (blocks.length === 0) return [];
    const change = (): Promise<MessageRecord[]> => {
      const wanted = new Set(ids);
      const detached: MessageRecord[] = [];
      const emptied: string[] = [];
      const kept: MessageBlockRecord[] = [];
      for (const block of blocks) {
        const messages = block.messages.filter((m) => {
          if (!wanted.has(m.id)) return true;
          detached.push(m);
          return false;
        });
        if (messages.length === 0) emptied.push(block.id);
        else kept.push({ ...block, messageIds: messages.map((m) => m.id), messages, size: messages.length });
      }
      return (emptied.length ? db.messageBlocks.bulkDelete(emptied) : resolved(undefined))
        .then(() => (kept.length ? db.messageBlocks.bulkPut(kept) : undefined))
        .then(() => detached);
    };
    return beforeChange
      ? resolved(undefined)
          .then(() => beforeChange(blocks))
          .then(change)
      : change();
  });
}

/** Adds or replaces messages by id (each a row from then on). */
export function putMessages(db: MessageTables, rows: readonly MessageRecord[]): Promise<void> {
  if (rows.length === 0) return resolved(undefined);
  return detachFromBlocks(
    db,
    rows.map((row) => row.id),
  )
    .then(() => db.messages.bulkPut(rows.slice()))
    .then(() => undefined);
}

/**
 * Changes top-level fields of one stored message (a field set to undefined is removed; a dotted key
 * path is not applied to a message in a block); nothing when none is stored.
 */
export function updateMessage(db: MessageTables, id: string, changes: UpdateSpec<MessageRecord>): Promise<void> {
  return db.messages.update(id, changes).then((updated) => {
    if (updated > 0) return undefined;
    return detachFromBlocks(db, [id]).then(([message]) => {
      if (!message) return undefined;
      const changed: Record<string, unknown> = { ...message };
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined) delete changed[key];
        else changed[key] = value;
      }
      return db.messages.add(changed as unknown as MessageRecord).then(() => undefined);
    });
  });
}

/** Removes every message of a conversation. */
export function deleteConversationMessages(db: MessageTables, conversationId: string): Promise<void> {
  return db.messages
    .where('[conversationId+ordinal]')
    .between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey])
    .delete()
    .then(() => db.messageBlocks.where('conversationId').equals(conversationId).delete())
    .then(() => undefined);
}

/** Removes the messages staged by unfinished imports whose stage key starts with `prefix` (always rows). */
export function deleteStagedMessages(db: MessageTables, prefix: string): Promise<void> {
  return db.messages
    .where('stagedBy')
    .startsWith(prefix)
    .delete()
    .then(() => undefined);
}

/** Ids of the messages stored in blocks. */
export function blockMessageIds(db: MessageTables): Promise<string[]> {
  return db.messageBlocks
    .orderBy('messageIds')
    .keys()
    .then((keys) => keys as string[]);
}
