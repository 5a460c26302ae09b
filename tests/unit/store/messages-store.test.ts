import { afterEach, describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../../src/lib/core/records';
import {
  addMessages,
  allMessages,
  conversationMessages,
  countPublishedMessages,
  countStoredMessages,
  deleteConversationMessages,
  deleteStagedMessages,
  getMessage,
  getMessages,
  messagePage,
  messageTables,
  putMessages,
  updateMessage,
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

  it('scans every message once, in pages that resume after the last id', async () => {
    const vault = await vaultWith(rows());
    const seen: string[] = [];
    for (let after: string | null = null; ;) {
      const page = await messagePage(vault.db, after, 2);
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(2);
      seen.push(...page.map((m) => m.id));
      after = page[page.length - 1]!.id;
    }
    expect(seen).toEqual(['a0', 'a1', 'a2', 'b0', 'b1']);
    expect((await allMessages(vault.db)).map((m) => m.id).sort()).toEqual(seen);
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

  it('adds only new ids and replaces by id on put', async () => {
    const vault = await vaultWith(rows());
    await expect(
      runTx(vault.db, 'rw', messageTables(vault.db), () => addMessages(vault.db, [message({ id: 'a0', conversationId: 'a' })])),
    ).rejects.toThrow();
    expect(await countStoredMessages(vault.db)).toBe(5);
    await runTx(vault.db, 'rw', messageTables(vault.db), () =>
      putMessages(vault.db, [message({ id: 'a0', conversationId: 'a', text: 'edited' })]),
    );
    expect((await getMessage(vault.db, 'a0'))?.text).toBe('edited');
    expect(await countStoredMessages(vault.db)).toBe(5);
  });
});
