import { describe, expect, it } from 'vitest';
import { captureHlc, conversationIdFor, conversationKey, planCapture, prepareCapture } from '../../../src/lib/core/capture/plan';
import type { ConversationCapture, ResourceCapture } from '../../../src/lib/core/capture/payload';

const base: ConversationCapture = {
  type: 'engram-capture',
  version: 1,
  kind: 'conversation',
  source: 'claude',
  method: 'markup',
  url: 'https://claude.ai/chat/abc?x=1',
  title: 'T',
  conversationId: 'abc',
  capturedAt: '2025-01-01T00:00:00.000Z',
  messages: [
    { role: 'user', text: 'Hi  there \r\n', externalId: null },
    { role: 'assistant', text: 'Hello', externalId: 'm2' },
  ],
};
const context = { now: 5, importId: 'imp', hlc: captureHlc(5), existingConversation: undefined, existingMessages: [] };

describe('capture plan: deterministic ids', () => {
  it('names a conversation by its source and site id, else its first message; a resource by URL or text', () => {
    expect(conversationKey(base)).toBe('claude:id:abc');
    expect(conversationKey({ ...base, conversationId: null })).toBe('claude:first:Hi  there');
    const resource: ResourceCapture = {
      ...base,
      kind: 'resource',
      source: 'web',
      method: 'selection',
      text: 'Body',
    } as unknown as ResourceCapture;
    delete (resource as unknown as Record<string, unknown>).messages;
    expect(conversationKey({ ...resource, url: 'https://example.org/a/b?q=1#h' })).toBe('web:url:https://example.org/a/b');
    expect(conversationKey({ ...resource, url: null })).toBe('web:text:Body');
  });

  it('gives the same ids for the same capture and different ids for another site or conversation', async () => {
    const a = await prepareCapture(base);
    const b = await prepareCapture(structuredClone(base));
    expect(a.conversationId).toBe(b.conversationId);
    expect(a.turns.map((t) => t.id)).toEqual(b.turns.map((t) => t.id));
    expect(a.conversationId).toMatch(/^cap-[0-9a-f]{32}$/);
    expect(await conversationIdFor({ ...base, source: 'chatgpt' })).not.toBe(a.conversationId);
    expect(await conversationIdFor({ ...base, conversationId: 'abd' })).not.toBe(a.conversationId);
    // The id of a message carries its position and its content hash.
    expect(a.turns[0]?.id).toMatch(new RegExp(`^${a.conversationId}:0:[0-9a-f]{16}$`));
  });

  it('stores text with line structure normalized and hashes it; roles and site ids kept', async () => {
    const plan = planCapture(await prepareCapture(base), context);
    expect(plan.messages.map((m) => [m.record.role, m.record.text, m.record.externalId, m.isNew])).toEqual([
      ['user', 'Hi  there', 'position-0', true],
      ['assistant', 'Hello', 'm2', true],
    ]);
    expect(plan.conversation).toMatchObject({ source: 'claude', externalId: 'abc', messageCount: 2, hlc: '0000000000005:0000:capture' });
    expect(plan.messages.every((m) => /^[0-9a-f]{64}$/.test(m.record.contentHash))).toBe(true);
  });

  it('marks stored messages as not new and keeps them unchanged', async () => {
    const prepared = await prepareCapture(base);
    const first = planCapture(prepared, context);
    const stored = first.messages.map((m) => m.record);
    const again = planCapture(prepared, {
      ...context,
      now: 9,
      hlc: captureHlc(9),
      existingConversation: first.conversation,
      existingMessages: stored,
    });
    expect(again.newCount).toBe(0);
    expect(again.messages.map((m) => m.record)).toEqual(stored);
    expect(again.conversation.createdAt).toBe(5);
    expect(again.conversation.importId).toBe('imp');
  });
});
