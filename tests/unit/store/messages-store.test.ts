import { afterEach, describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../../src/lib/core/records';
import {
  addMessages,
  allMessages,
  conversationMessages,
  countPublishedMessages,
  countStoredMessages,
  deleteConversationMessages,
  detachFromBlocks,
  deleteStagedMessages,
  getMessage,
  getMessages,
  MESSAGE_BLOCK_SIZE,
  messagePage,
  messageTables,
  putMessages,
  scanMessages,
  updateMessage,
  type MessageScanPosition,
} from '../../../src/lib/store/messages-store';
import { runTx } from '../../../src/lib/store/transaction';
import { openVault, type Vault } from '../../../src/lib/store/vault';
import { message } from '../../factories/records';

/**
 * The contract of the one path to stored messages (issue 19): what any storage layout behind it
 * (one row per message today) must keep.
 */
const opened: Vault[] = [];
afterEach(async () => {
  for (const vault of opened.splice(0)) {
    vault.db.close();
    await vault.db.delete();
  }
});

async function vaultWith(rows: MessageRecord[]): Promise<Vault> {
  const vault = await openVault(`messages-store-${process.pid}-${opened.length}-${Date.now()}`);
  opened.push(vault);
  await runTx(vault.db, 'rw', messageTables(vault.db), () => addMessages(vault.db, rows));
  return vault;
}

/** Two conversations, written out of order; `b` holds a message staged by an unfinished import. */
const rows = (): MessageRecord[] => [
  message({ id: 'a2', conversationId: 'a', ordinal: 2 }),
  message({ id: 'b0', conversationId: 'b', ordinal: 0 }),
  message({ id: 'a0', conversationId: 'a', ordinal: 0 }),
  message({ id: 'b1', conversationId: 'b', ordinal: 1, state: 'staged', stagedBy: 'imp_2/0' }),
  message({ id: 'a1', conversationId: 'a', ordinal: 1, branch: { onVisiblePath: false, parentExternalId: 'x' } }),
];

describe('messages-store', () => {
  it("keys blocks in the order they are written, uniquely, whatever their messages' ids", async () => {
    const vault = await vaultWith([message({ id: 'z0', conversationId: 'z', ordinal: 0 })]);
    // Later writes, in the same millisecond or not, with ids that sort before the first one's.
    for (const id of ['m0', 'a0', 'b0'])
      await runTx(vault.db, 'rw', messageTables(vault.db), () => addMessages(vault.db, [message({ id, conversationId: id, ordinal: 0 })]));
    const blocks = await vault.db.messageBlocks.toArray(); // in key order
    expect(blocks.map((b) => b.messageIds[0])).toEqual(['z0', 'm0', 'a0', 'b0']);
    expect(new Set(blocks.map((b) => b.id)).size).toBe(4);
  });

  it("reads a conversation's messages in ordinal order, branches and staged ones included, and no other conversation's", async () => {
    const vault = await vaultWith(rows());
    expect((await conversationMessages(vault.db, 'a')).map((m) => m.id)).toEqual(['a0', 'a1', 'a2']);
    expect((await conversationMessages(vault.db, 'b')).map((m) => m.id)).toEqual(['b0', 'b1']);
    expect(await conversationMessages(vault.db, 'none')).toEqual([]);
  });

  it('reads by id in the order asked, undefined where nothing is stored', async () => {
    const vault = await vaultWith(rows());
    expect((await getMessages(vault.db, ['b1', 'missing', 'a0'])).map((m) => m?.id)).toEqual(['b1', undefined, 'a0']);
    expect((await getMessage(vault.db, 'a2'))?.ordinal).toBe(2);
    expect(await getMessage(vault.db, 'missing')).toBeUndefined();
  });

  it('scans every message once, rows then blocks, in pages that resume where the last ended', async () => {
    const vault = await vaultWith(rows());
    // One message as a row from before blocks (put), the rest as the import writes them.
    await runTx(vault.db, 'rw', messageTables(vault.db), () => putMessages(vault.db, [message({ id: 'c0', conversationId: 'c' })]));
    const seen: string[] = [];
    let pages = 0;
    for (let position: MessageScanPosition | null = null; ;) {
      const page = await messagePage(vault.db, position, 1);
      if (page.next === null) {
        expect(page.messages).toEqual([]);
        break;
      }
      pages++;
      seen.push(...page.messages.map((m) => m.id));
      position = page.next;
    }
    expect(seen.sort()).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'c0']);
    // Rows one at a time (b1, c0), then one block per page (conversations a and b).
    expect(pages).toBe(4);
    expect((await allMessages(vault.db)).map((m) => m.id).sort()).toEqual(seen);
  });

  it('scans rows and blocks until the callback says it found what it looked for', async () => {
    const vault = await vaultWith(rows());
    const seen: string[] = [];
    expect(await scanMessages(vault.db, 1, (page) => void seen.push(...page.map((m) => m.id)))).toBe(false);
    expect(seen.sort()).toEqual(['a0', 'a1', 'a2', 'b0', 'b1']);
    const until: string[] = [];
    expect(
      await scanMessages(vault.db, 1, (page) => {
        until.push(...page.map((m) => m.id));
        return page.some((m) => m.id === 'b1');
      }),
    ).toBe(true);
    // The row (b1) comes first and stops the scan before any block is read.
    expect(until).toEqual(['b1']);
  });

  it("stores an import's new messages as blocks per conversation and its staged ones as rows", async () => {
    const vault = await vaultWith(rows());
    expect((await vault.db.messages.toArray()).map((m) => m.id)).toEqual(['b1']);
    const blocks = await vault.db.messageBlocks.orderBy('conversationId').toArray();
    expect(blocks.map((b) => [b.conversationId, b.messageIds])).toEqual([
      ['a', ['a2', 'a0', 'a1']],
      ['b', ['b0']],
    ]);
  });

  it('splits a long conversation into blocks of MESSAGE_BLOCK_SIZE', async () => {
    const long = Array.from({ length: MESSAGE_BLOCK_SIZE * 2 + 1 }, (_, i) =>
      message({ id: `m${String(i).padStart(3, '0')}`, conversationId: 'long', ordinal: i }),
    );
    const vault = await vaultWith(long);
    expect((await vault.db.messageBlocks.toArray()).map((b) => b.messages.length).sort((x, y) => x - y)).toEqual([
      1,
      MESSAGE_BLOCK_SIZE,
      MESSAGE_BLOCK_SIZE,
    ]);
    expect((await conversationMessages(vault.db, 'long')).map((m) => m.ordinal)).toEqual(long.map((m) => m.ordinal));
    expect(await countStoredMessages(vault.db)).toBe(long.length);
  });

  it('counts stored messages, and published ones without the staged message or a staged conversation', async () => {
    const vault = await vaultWith(rows());
    expect(await countStoredMessages(vault.db)).toBe(5);
    expect(await countPublishedMessages(vault.db, [])).toBe(4);
    // While conversation `a` is itself staged, its (visible) messages are not published either.
    expect(await countPublishedMessages(vault.db, ['a'])).toBe(1);
  });

  it('publishes a staged message by removing its stage key, which then no longer counts as staged', async () => {
    const vault = await vaultWith(rows());
    await runTx(vault.db, 'rw', messageTables(vault.db), () => updateMessage(vault.db, 'b1', { state: 'visible', stagedBy: undefined }));
    const b1 = await getMessage(vault.db, 'b1');
    expect(b1?.state).toBe('visible');
    expect(b1 && 'stagedBy' in b1).toBe(false);
    expect(await countPublishedMessages(vault.db, [])).toBe(5);
    // Nothing is left for a rollback of that import to remove.
    await runTx(vault.db, 'rw', messageTables(vault.db), () => deleteStagedMessages(vault.db, 'imp_2'));
    expect(await countStoredMessages(vault.db)).toBe(5);
  });

  it("rolls back: removes exactly the import's staged messages, then a whole conversation", async () => {
    const vault = await vaultWith(rows());
    await runTx(vault.db, 'rw', messageTables(vault.db), async () => {
      await deleteStagedMessages(vault.db, 'imp_1');
      expect(await countStoredMessages(vault.db)).toBe(5);
      await deleteStagedMessages(vault.db, 'imp_2');
      await deleteConversationMessages(vault.db, 'a');
    });
    expect((await allMessages(vault.db)).map((m) => m.id)).toEqual(['b0']);
  });

  it('changes a message in a block by taking it out as a row: one copy of every id, the rest of the block kept', async () => {
    const vault = await vaultWith(rows());
    await runTx(vault.db, 'rw', messageTables(vault.db), async () => {
      await updateMessage(vault.db, 'a1', { ordinal: 5 });
      await putMessages(vault.db, [message({ id: 'a0', conversationId: 'a', text: 'edited' })]);
    });
    expect((await getMessage(vault.db, 'a0'))?.text).toBe('edited');
    expect((await conversationMessages(vault.db, 'a')).map((m) => [m.id, m.ordinal])).toEqual([
      ['a0', 0],
      ['a2', 2],
      ['a1', 5],
    ]);
    expect((await vault.db.messages.toArray()).map((m) => m.id).sort()).toEqual(['a0', 'a1', 'b1']);
    expect((await vault.db.messageBlocks.where('conversationId').equals('a').toArray()).map((b) => b.messageIds)).toEqual([['a2']]);
    expect(await countStoredMessages(vault.db)).toBe(5);
    // Taking the last message out of a block deletes the block; what was taken out is returned, once.
    const taken = await runTx(vault.db, 'rw', messageTables(vault.db), () => detachFromBlocks(vault.db, ['a2', 'a1', 'a2']));
    expect(taken.map((m) => m.id)).toEqual(['a2']);
    expect(await vault.db.messageBlocks.where('conversationId').equals('a').count()).toBe(0);
    expect((await allMessages(vault.db)).map((m) => m.id).sort()).toEqual(['a0', 'a1', 'b0', 'b1']);
    // Changing a message that is stored nowhere changes nothing.
    await runTx(vault.db, 'rw', messageTables(vault.db), () => updateMessage(vault.db, 'gone', { ordinal: 1 }));
    expect(await countStoredMessages(vault.db)).toBe(4);
  });
});
