import { describe, expect, it } from 'vitest';
import { createStoreSink } from '../../../src/lib/client/capture-store-sink';
import type { ConversationCapture, ResourceCapture } from '../../../src/lib/core/capture/payload';
import { openVault, type Vault } from '../../../src/lib/store/vault';

/** The interim sink behind saveCapture(): deterministic ids, only new messages added, one transaction. */
function conversation(texts: [string, string][], over: Partial<ConversationCapture> = {}): ConversationCapture {
  return {
    type: 'engram-capture',
    version: 1,
    kind: 'conversation',
    source: 'chatgpt',
    method: 'markup',
    url: 'https://chatgpt.com/c/abc-123',
    title: 'Rate limiter design',
    conversationId: 'abc-123',
    capturedAt: '2025-01-01T00:00:00.000Z',
    messages: texts.map(([role, text]) => ({ role: role as 'user' | 'assistant', text, externalId: null })),
    ...over,
  };
}

let counter = 0;
async function sinkWithVault(): Promise<{ vault: Vault; sink: ReturnType<typeof createStoreSink> }> {
  const vault = await openVault(`capture-sink-${process.pid}-${++counter}-${Date.now()}`);
  let ids = 0;
  const sink = createStoreSink(async () => vault, { now: () => 1_700_000_000_000 + ids, newId: (prefix) => `${prefix}_${++ids}` });
  return { vault, sink };
}

describe('capture store sink', () => {
  it('previews without writing, then stores the conversation, its messages and an import report', async () => {
    const { vault, sink } = await sinkWithVault();
    const payload = conversation([
      ['user', 'How do token buckets work?'],
      ['assistant', 'They refill at a steady rate.\n\n```python\nprint(1)\n```'],
    ]);
    const preview = await sink.preview(payload);
    expect(preview.newCount).toBe(2);
    expect(preview.messages.map((m) => [m.ordinal, m.role, m.isNew])).toEqual([
      [0, 'user', true],
      [1, 'assistant', true],
    ]);
    expect(await vault.conversations.countVisible()).toBe(0);

    const result = await sink.save(payload);
    expect(result).toMatchObject({ added: 2, unchanged: 0, importId: 'capture_1' });
    const stored = await vault.conversations.get(result.conversationId);
    expect(stored).toMatchObject({
      source: 'chatgpt',
      externalId: 'abc-123',
      title: 'Rate limiter design',
      messageCount: 2,
      state: 'visible',
    });
    const messages = await vault.conversations.messages(result.conversationId);
    expect(messages.map((m) => [m.ordinal, m.role, m.text])).toEqual([
      [0, 'user', 'How do token buckets work?'],
      [1, 'assistant', 'They refill at a steady rate.\n\n```python\nprint(1)\n```'],
    ]);
    expect(messages.every((m) => m.contentHash.length === 64 && m.importId === 'capture_1')).toBe(true);
    expect((await vault.imports.get('capture_1'))?.report).toMatchObject({ kind: 'capture', found: 2, stored: 2, skipped: 0 });
    vault.db.close();
  });

  it('capturing the same conversation again adds nothing; a longer version adds only the new messages', async () => {
    const { vault, sink } = await sinkWithVault();
    const first = conversation([
      ['user', 'Question one'],
      ['assistant', 'Answer one'],
    ]);
    const saved = await sink.save(first);
    const again = await sink.save(first);
    expect(again).toMatchObject({ conversationId: saved.conversationId, added: 0, unchanged: 2, importId: null });
    expect(await vault.imports.count()).toBe(1);

    const longer = conversation([
      ['user', 'Question one'],
      ['assistant', 'Answer one'],
      ['user', 'Question two'],
      ['assistant', 'Answer two'],
    ]);
    expect((await sink.preview(longer)).messages.map((m) => m.isNew)).toEqual([false, false, true, true]);
    expect(await sink.save(longer)).toMatchObject({ added: 2, unchanged: 2 });
    expect(await vault.conversations.countMessages()).toBe(4);
    expect((await vault.conversations.get(saved.conversationId))?.messageCount).toBe(4);
    vault.db.close();
  });

  it('an edited earlier message is stored at its position and the old one leaves the visible path', async () => {
    const { vault, sink } = await sinkWithVault();
    const saved = await sink.save(
      conversation([
        ['user', 'Original question'],
        ['assistant', 'Original answer'],
      ]),
    );
    await sink.save(
      conversation([
        ['user', 'Edited question'],
        ['assistant', 'New answer'],
      ]),
    );
    const messages = await vault.conversations.messages(saved.conversationId);
    expect(messages).toHaveLength(4);
    const visible = messages.filter((m) => m.branch.onVisiblePath).map((m) => m.text);
    expect(visible.sort()).toEqual(['Edited question', 'New answer']);
    vault.db.close();
  });

  it('keeps different conversations apart and a resource as a one-message capture', async () => {
    const { vault, sink } = await sinkWithVault();
    const a = await sink.save(conversation([['user', 'Same words']]));
    const b = await sink.save(
      conversation([['user', 'Same words']], { conversationId: 'other-456', url: 'https://chatgpt.com/c/other-456' }),
    );
    expect(a.conversationId).not.toBe(b.conversationId);
    const resource: ResourceCapture = {
      type: 'engram-capture',
      version: 1,
      kind: 'resource',
      source: 'web',
      method: 'selection',
      url: 'https://example.org/post?utm=1#top',
      title: 'A post',
      capturedAt: '2025-01-01T00:00:00.000Z',
      text: 'Selected paragraph.',
    };
    const r = await sink.save(resource);
    expect(await vault.conversations.get(r.conversationId)).toMatchObject({
      source: 'capture',
      externalId: 'https://example.org/post?utm=1#top',
    });
    expect(await sink.save({ ...resource, url: 'https://example.org/post' })).toMatchObject({ conversationId: r.conversationId, added: 0 });
    vault.db.close();
  });
});
