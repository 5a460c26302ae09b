import { describe, expect, it } from 'vitest';
import { contentHash } from '../../../src/lib/core/text/normalize';
import { ImportSession, rollbackStaged, type IncomingConversation, type IncomingMessage } from '../../../src/lib/store/import-session';
import { DEFAULT_TX_TIMEOUT_MS, timeoutForRows, TX_MS_PER_ROW } from '../../../src/lib/store/transaction';
import type { VaultDb } from '../../../src/lib/store/schema';
import { freshDb } from '../../factories/db';
import { allMessages, countStoredMessages } from '../../../src/lib/store/messages-store';

let tick = 0;
const stamp = () => `stamp-${++tick}`;

async function msg(externalId: string, text: string, over: Partial<IncomingMessage> = {}): Promise<IncomingMessage> {
  return {
    externalId,
    role: 'user',
    text,
    contentHash: await contentHash(text),
    createdAt: null,
    parentExternalId: null,
    onVisiblePath: true,
    hidden: false,
    flags: [],
    ...over,
  };
}

async function conversation(externalId: string, texts: string[], extra: IncomingMessage[] = []): Promise<IncomingConversation> {
  const messages = await Promise.all(texts.map((t, i) => msg(`${externalId}-m${i}`, t, { role: i % 2 ? 'assistant' : 'user' })));
  return { source: 'chatgpt', externalId, title: `Title ${externalId}`, createdAt: 1, updatedAt: 2, messages: [...messages, ...extra] };
}

async function snapshot(db: VaultDb) {
  return { conversations: await db.conversations.toArray(), messages: await allMessages(db) };
}

/** What views see: visible conversations, and visible messages of visible conversations. */
const visibleCounts = async (db: VaultDb) => {
  const conversations = new Set(await db.conversations.where('state').equals('visible').primaryKeys());
  const messages = (await allMessages(db)).filter((m) => m.state === 'visible' && conversations.has(m.conversationId));
  return { conversations: conversations.size, messages: messages.length };
};

describe('ImportSession', () => {
  it('stages rows invisibly, then publishes them in one step', async () => {
    const db = freshDb();
    const session = new ImportSession(db, 'imp_a/0', stamp);
    const [outcome] = await session.add([await conversation('c1', ['hello', 'hi there', 'how are you'])]);
    expect(outcome).toMatchObject({ conversation: 'stored', messages: { found: 3, stored: 3, existing: 0 }, otherBranches: 0, hidden: 0 });
    expect(await visibleCounts(db)).toEqual({ conversations: 0, messages: 0 });
    expect(await countStoredMessages(db)).toBe(3);
    await session.publish();
    expect(await visibleCounts(db)).toEqual({ conversations: 1, messages: 3 });
    expect((await db.conversations.toArray())[0]).toMatchObject({ messageCount: 3, title: 'Title c1', state: 'visible' });
    db.close();
  });

  it('re-importing the same conversation adds nothing', async () => {
    const db = freshDb();
    const first = new ImportSession(db, 'imp_a/0', stamp);
    await first.add([await conversation('c1', ['a', 'b'])]);
    await first.publish();
    const before = await snapshot(db);

    const again = new ImportSession(db, 'imp_b/0', stamp);
    const [outcome] = await again.add([await conversation('c1', ['a', 'b'])]);
    await again.publish();
    expect(outcome).toMatchObject({ conversation: 'existing', messages: { found: 2, stored: 0, existing: 2 } });
    expect(again.staged).toEqual({ conversations: 0, messages: 0 });
    expect(await snapshot(db)).toEqual(before);
    db.close();
  });

  it('a conversation that grew adds only its new messages, after the old ones', async () => {
    const db = freshDb();
    const first = new ImportSession(db, 'imp_a/0', stamp);
    await first.add([await conversation('c1', ['a', 'b'])]);
    await first.publish();

    const grown = new ImportSession(db, 'imp_b/0', stamp);
    const [outcome] = await grown.add([await conversation('c1', ['a', 'b', 'c', 'd'])]);
    expect(outcome).toMatchObject({ conversation: 'existing', messages: { found: 4, stored: 2, existing: 2 } });
    // The existing conversation is untouched until publish, and its new messages are invisible.
    expect((await db.conversations.toArray())[0]!.messageCount).toBe(2);
    expect(await visibleCounts(db)).toEqual({ conversations: 1, messages: 2 });
    // The new messages are staged themselves, found by the sparse `stagedBy` index until publish.
    expect(await db.messages.where('stagedBy').equals('imp_b/0').count()).toBe(2);
    await grown.publish();
    const stored = await (await allMessages(db)).sort((a, b) => a.conversationId.localeCompare(b.conversationId) || a.ordinal - b.ordinal);
    expect(stored.map((m) => m.text)).toEqual(['a', 'b', 'c', 'd']);
    expect(stored.every((m) => m.state === 'visible' && !('stagedBy' in m))).toBe(true);
    expect(await db.messages.orderBy('stagedBy').count()).toBe(0);
    expect((await db.conversations.toArray())[0]!.messageCount).toBe(4);
    db.close();
  });

  it('an identical conversation under another external id is recognised as existing', async () => {
    const db = freshDb();
    const first = new ImportSession(db, 'imp_a/0', stamp);
    await first.add([await conversation('c1', ['same words', 'same answer'])]);
    await first.publish();
    const copy = new ImportSession(db, 'imp_b/0', stamp);
    const [outcome] = await copy.add([await conversation('other-id', ['same words', 'same answer'])]);
    expect(outcome).toMatchObject({ conversation: 'existing', messages: { found: 2, stored: 0, existing: 2 } });
    expect(await db.conversations.count()).toBe(1);
    db.close();
  });

  it('batches added without waiting are stored in order: each lookup sees what the batches before it wrote (issue 19)', async () => {
    const db = freshDb();
    const session = new ImportSession(db, 'imp_a/0', stamp);
    // The importer hands a batch over while the one before it is still being written.
    const first = session.add([await conversation('c1', ['a', 'b'])]);
    const second = session.add([await conversation('c1', ['a', 'b', 'c']), await conversation('copy-of-c1', ['a', 'b'])]);
    const third = session.add([await conversation('copy-of-c1', ['a', 'b'])]);
    const [[one], [grown, copy], [again]] = await Promise.all([first, second, third]);
    expect(one).toMatchObject({ conversation: 'stored', messages: { stored: 2 } });
    // Had the second lookup run before the first write, c1 would be stored twice and the copy kept.
    expect(grown).toMatchObject({ conversation: 'existing', messages: { found: 3, stored: 1, existing: 2 } });
    expect(copy).toMatchObject({ conversation: 'existing', conversationId: one!.conversationId });
    expect(again).toMatchObject({ conversation: 'existing', conversationId: one!.conversationId });
    await session.publish();
    expect(await visibleCounts(db)).toEqual({ conversations: 1, messages: 3 });
    db.close();
  });

  it('a batch whose write fails rejects alone: the batch after it is still stored', async () => {
    const db = freshDb();
    const session = new ImportSession(db, 'imp_a/0', stamp);
    const add = db.messageBlocks.bulkAdd.bind(db.messageBlocks);
    let calls = 0;
    db.messageBlocks.bulkAdd = ((...args: Parameters<typeof add>) => {
      if (++calls === 1) return Promise.reject(new Error('disk full'));
      return add(...args);
    }) as typeof add;
    const failed = session.add([await conversation('c1', ['a'])]);
    const next = session.add([await conversation('c2', ['b'])]);
    await expect(failed).rejects.toThrow();
    await expect(next).resolves.toMatchObject([{ conversation: 'stored' }]);
    db.close();
  });

  it('counts hidden and other-branch messages apart from the visible thread, and stores them', async () => {
    const db = freshDb();
    const session = new ImportSession(db, 'imp_a/0', stamp);
    const extra = [
      await msg('sys', 'system prompt', { role: 'system', hidden: true }),
      await msg('alt', 'an edit', { onVisiblePath: false }),
      await msg('hid-alt', 'x', { hidden: true, onVisiblePath: false }),
    ];
    const [outcome] = await session.add([await conversation('c1', ['q', 'a'], extra)]);
    expect(outcome).toMatchObject({ messages: { found: 2, stored: 2, existing: 0 }, otherBranches: 1, hidden: 2 });
    expect(await countStoredMessages(db)).toBe(5);
    db.close();
  });

  it('rollback leaves the vault exactly as it was, existing conversations included', async () => {
    const db = freshDb();
    const first = new ImportSession(db, 'imp_a/0', stamp);
    await first.add([await conversation('c1', ['a', 'b'])]);
    await first.publish();
    const before = await snapshot(db);

    const failing = new ImportSession(db, 'imp_b/0', stamp);
    await failing.add([await conversation('c1', ['a', 'b', 'c']), await conversation('c2', ['x', 'y'])]);
    expect(await countStoredMessages(db)).toBe(5);
    await failing.rollback();
    expect(await snapshot(db)).toEqual(before);
    db.close();
  });

  it('rolling back an interrupted multi-file import keeps the files it had published', async () => {
    const db = freshDb();
    const published = new ImportSession(db, 'imp_multi/0', stamp);
    await published.add([await conversation('first-file', ['a', 'b'])]);
    await published.publish();
    const unfinished = new ImportSession(db, 'imp_multi/1', stamp);
    await unfinished.add([await conversation('first-file', ['a', 'b', 'c']), await conversation('second-file', ['x'])]);
    await rollbackStaged(db, 'imp_multi/');
    expect(await visibleCounts(db)).toEqual({ conversations: 1, messages: 2 });
    expect(await countStoredMessages(db)).toBe(2);
    db.close();
  });

  it('rollbackStaged removes the leftovers of an interrupted import by prefix', async () => {
    const db = freshDb();
    const done = new ImportSession(db, 'imp_ok/0', stamp);
    await done.add([await conversation('keep', ['k'])]);
    await done.publish();
    const interrupted = new ImportSession(db, 'imp_crashed/0', stamp);
    await interrupted.add([await conversation('lost', ['l', 'm'])]);
    await rollbackStaged(db, 'imp_crashed/');
    expect((await db.conversations.toArray()).map((c) => c.externalId)).toEqual(['keep']);
    expect(await countStoredMessages(db)).toBe(1);
    db.close();
  });

  it('a conversation continued from an edit moves its stored messages to the new branch layout', async () => {
    const db = freshDb();
    const first = new ImportSession(db, 'imp_a/0', stamp);
    const original = await conversation('c1', ['q', 'old answer']);
    await first.add([original]);
    await first.publish();

    // The person regenerated the answer: the old one is now on another branch.
    const q = original.messages[0]!;
    const old = { ...original.messages[1]!, onVisiblePath: false };
    const regenerated = await msg('c1-m9', 'new answer', { role: 'assistant' });
    const next = new ImportSession(db, 'imp_b/0', stamp);
    const [outcome] = await next.add([{ ...original, messages: [q, regenerated, old] }]);
    await next.publish();
    expect(outcome).toMatchObject({ messages: { found: 2, stored: 1, existing: 1 }, otherBranches: 1 });
    const visible = (
      await (await allMessages(db)).sort((a, b) => a.conversationId.localeCompare(b.conversationId) || a.ordinal - b.ordinal)
    ).filter((m) => m.branch.onVisiblePath);
    expect(visible.map((m) => m.text)).toEqual(['q', 'new answer']);
    db.close();
  });
});

describe('publish and rollback timeouts (issue 14)', () => {
  it('grow with the rows the transaction writes instead of a fixed 30 s', async () => {
    const db = freshDb();
    const small = new ImportSession(db, 'imp_s/0', stamp);
    await small.add([await conversation('c0', ['one message'])]);
    const big = new ImportSession(db, 'imp_b/0', stamp);
    await big.add(await Promise.all(Array.from({ length: 200 }, (_, i) => conversation(`c${i + 1}`, [`message ${i}`, `reply ${i}`]))));
    expect(small.publishTimeoutMs()).toBe(timeoutForRows(1));
    expect(big.publishTimeoutMs()).toBe(timeoutForRows(200));
    expect(big.publishTimeoutMs()).toBeGreaterThan(small.publishTimeoutMs());
    expect(big.rollbackTimeoutMs()).toBe(timeoutForRows(200 + 400));
    expect(timeoutForRows(0)).toBe(DEFAULT_TX_TIMEOUT_MS);
    expect(timeoutForRows(1_000_000)).toBe(DEFAULT_TX_TIMEOUT_MS + 1_000_000 * TX_MS_PER_ROW);
    await big.publish();
    await small.rollback();
    db.close();
  });
});
