/**
 * Prompts with no subject through the app's read path: after importing and extracting a few chats,
 * "What did I decide?" lists the Decision notes (the Inbox's provisional candidates included), newest
 * first, instead of "the vault holds nothing on this"; "What did we talk about?" lists the session
 * summaries; the person's drops apply; a prompt with a subject is recalled as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Vault } from '../../../src/lib/store/vault';
import { CAT, chatVault, GARDEN, type ChatVault } from './chat-vault';

describe('prompts with no subject', () => {
  let chats: ChatVault;
  let vault: Vault;

  beforeAll(async () => {
    chats = await chatVault([
      ['garden.txt', GARDEN],
      ['cat.txt', CAT],
    ]);
    ({ vault } = chats);
  }, 60_000);

  afterAll(() => chats.close());

  const ask = (prompt: string, more: { dropped?: string[] } = {}) => chats.ask(prompt, more);

  it('"What did I decide?" lists the decisions, provisional ones included, newest first', async () => {
    const decisions = (await vault.db.notes.where('category').equals('Decisions').toArray()).filter((n) => n.status === 'provisional');
    expect(decisions.length).toBeGreaterThanOrEqual(2);
    const { result, package: pkg } = await ask('What did I decide?');
    expect(result.holdsNothing).toBeNull();
    expect(result.scope).toMatchObject({ kind: 'notes', categories: ['Decisions'], listed: decisions.length });
    expect(result.items.map((i) => i.record.id).sort()).toEqual(decisions.map((n) => n.id).sort());
    // Newest first by when it was said: the conversation's date, else the note's.
    const when = await Promise.all(
      result.items.map(
        async (i) =>
          (i.record.conversationId ? (await vault.db.conversations.get(i.record.conversationId))?.createdAt : null) ?? i.record.createdAt,
      ),
    );
    expect(when).toEqual([...when].sort((a, b) => b - a));
    // Unreviewed candidates weigh as the chat they came from, not as kept notes.
    expect(result.items.every((i) => i.record.tier === 'chat')).toBe(true);
    expect(pkg.text).toContain('Rachio on Wi-Fi');
    expect(pkg.text).toContain('wet food twice a day');
    // Unscoped, the same prompt was refused: it names nothing the vault holds.
    const plain = await chats.ask('What did I decide?', {}, { scope: false });
    expect(plain.result.holdsNothing).not.toBeNull();
  });

  it("the person's drops apply to the list", async () => {
    const first = (await ask('What did I decide?')).result.items[0]!.record.id;
    const { result } = await ask('What did I decide?', { dropped: [first] });
    expect(result.items.map((i) => i.record.id)).not.toContain(first);
  });

  it('a candidate pinned from the list comes back on another prompt, at chat weight', async () => {
    const first = (await ask('What did I decide?')).result.items[0]!.record.id;
    const { result } = await chats.ask('How often should Miso be weighed?', { pinned: [first] });
    const pinned = result.items.find((i) => i.record.id === first);
    expect(pinned?.record).toMatchObject({ pinned: true, tier: 'chat' });
  });

  it('"What did we talk about?" lists the session summaries', async () => {
    const { result } = await ask('What did we talk about?');
    expect(result.scope).toMatchObject({ kind: 'sessions', listed: 2 });
    expect(result.items.every((i) => i.record.structure?.kind === 'summary')).toBe(true);
  });

  it('says what the vault does not hold yet, and leaves prompts with a subject alone', async () => {
    const { result } = await ask('What are my constraints?');
    if (result.items.length === 0) expect(result.holdsNothing?.message).toMatch(/holds no constraints yet/u);
    const subject = await ask('What did I decide about the Rachio?');
    expect(subject.result.scope ?? null).toBeNull();
    expect(subject.result.items.some((i) => i.record.text.includes('Rachio'))).toBe(true);
  });

  it('lists what the person kept before the Inbox candidates', async () => {
    const before = (await ask('What did I decide?')).result.items.map((i) => i.record.id);
    const last = before[before.length - 1]!;
    await vault.db.notes.update(last, { status: 'kept' });
    const after = (await ask('What did I decide?')).result.items;
    expect(after[0]!.record).toMatchObject({ id: last, tier: 'engram' });
    expect(after.slice(1).map((i) => i.record.id)).toEqual(before.slice(0, -1));
  });
});
