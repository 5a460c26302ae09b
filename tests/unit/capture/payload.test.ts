import { describe, expect, it } from 'vitest';
import { payloadFromPaste, payloadFromShare, titleFromText } from '../../../src/lib/core/capture/paste';
import { CAPTURE_LIMITS, parseCapturePayload, type ConversationCapture } from '../../../src/lib/core/capture/payload';
import { utf8Length } from '../../../src/lib/core/text/utf8';

const NOW = Date.UTC(2025, 0, 2, 3, 4, 5);

function conversation(over: Record<string, unknown> = {}): ConversationCapture & Record<string, unknown> {
  return {
    type: 'engram-capture',
    version: 1,
    kind: 'conversation',
    source: 'claude',
    method: 'markup',
    url: 'https://claude.ai/chat/3f1c',
    title: 'Designing a rate limiter',
    conversationId: '3f1c',
    capturedAt: '2025-01-02T03:04:05.000Z',
    messages: [
      { role: 'user', text: 'Hi', externalId: null },
      { role: 'assistant', text: 'Hello', externalId: 'msg-2' },
    ],
    ...over,
  } as ConversationCapture & Record<string, unknown>;
}

const codeOf = (result: ReturnType<typeof parseCapturePayload>) => (result.ok ? 'ok' : result.error.code);

describe('capture payload schema', () => {
  it('accepts a well-formed conversation and a resource', () => {
    expect(parseCapturePayload(conversation())).toEqual({ ok: true, value: conversation() });
    const resource = { ...conversation(), kind: 'resource', source: 'web', method: 'selection', text: 'A paragraph.' };
    delete (resource as Record<string, unknown>).messages;
    delete (resource as Record<string, unknown>).conversationId;
    expect(codeOf(parseCapturePayload(resource))).toBe('ok');
  });

  it.each([
    ['a wrong type tag', { type: 'something-else' }],
    ['a future version', { version: 2 }],
    ['an unknown kind', { kind: 'video' }],
    ['an unknown source', { source: 'bard' }],
    ['a conversation read another way than from markup', { method: 'selection' }],
    ['no messages', { messages: [] }],
    ['an empty message', { messages: [{ role: 'user', text: '', externalId: null }] }],
    ['an unknown role', { messages: [{ role: 'admin', text: 'x', externalId: null }] }],
    ['a javascript: URL', { url: 'javascript:alert(1)' }],
    ['a data: URL', { url: 'data:text/html,x' }],
    ['a relative URL', { url: '/chat/1' }],
    ['a date that is not ISO', { capturedAt: 'yesterday' }],
    ['an extra field', { extra: true }],
    ['an extra field in a message', { messages: [{ role: 'user', text: 'x', externalId: null, html: '<b>' }] }],
  ])('refuses %s as capture/invalid', (_name, over) => {
    expect(codeOf(parseCapturePayload(conversation(over)))).toBe('capture/invalid');
  });

  it.each([null, undefined, 'text', 42, [], { type: 'engram-capture' }])('refuses %j', (value) => {
    expect(codeOf(parseCapturePayload(value))).toBe('capture/invalid');
  });

  it('refuses data that cannot be serialized', () => {
    const cyclic: Record<string, unknown> = conversation();
    cyclic.self = cyclic;
    expect(codeOf(parseCapturePayload(cyclic))).toBe('capture/invalid');
    expect(codeOf(parseCapturePayload({ ...conversation(), n: 1n }))).toBe('capture/invalid');
  });
});

describe('capture size limits', () => {
  it('states the limits', () => {
    expect(CAPTURE_LIMITS).toEqual({
      maxBytes: 8 * 1024 * 1024,
      maxMessages: 5_000,
      maxMessageChars: 1_000_000,
      maxResourceChars: 2_000_000,
      maxTitleChars: 1_000,
      maxUrlChars: 4_096,
      maxIdChars: 256,
    });
  });

  it('refuses a payload over 8 MB whole, as capture/too-large', () => {
    // 9 messages of 1,000,000 characters: each within its limit, together over the payload limit.
    const messages = Array.from({ length: 9 }, (_, i) => ({ role: 'user', text: 'x'.repeat(1_000_000 - i), externalId: null }));
    const result = parseCapturePayload(conversation({ messages }));
    expect(codeOf(result)).toBe('capture/too-large');
    expect(result.ok ? '' : result.error.message).toMatch(/at most 8 MB/);
  });

  it('counts bytes, not characters (multi-byte text reaches the limit sooner)', () => {
    const emoji = '😀'.repeat(2_000_000 / 2); // 2,000,000 UTF-16 units, 4,000,000 bytes
    expect(utf8Length(emoji)).toBe(4_000_000);
    expect(utf8Length('héllo')).toBe(6);
    expect(utf8Length('€')).toBe(3);
    // Five messages of 1,000,000 UTF-16 units (5 M characters in all, but 10 MB of UTF-8).
    const messages = Array.from({ length: 5 }, () => emoji.slice(0, 1_000_000)).map((text) => ({
      role: 'assistant',
      text,
      externalId: null,
    }));
    expect(codeOf(parseCapturePayload(conversation({ messages })))).toBe('capture/too-large');
  });

  it.each([
    ['too many messages', { messages: Array.from({ length: 5_001 }, () => ({ role: 'user', text: 'x', externalId: null })) }],
    ['a message over 1,000,000 characters', { messages: [{ role: 'user', text: 'x'.repeat(1_000_001), externalId: null }] }],
    ['a title over 1,000 characters', { title: 't'.repeat(1_001) }],
    ['a URL over 4,096 characters', { url: `https://claude.ai/${'a'.repeat(4_100)}` }],
    ['a conversation id over 256 characters', { conversationId: 'c'.repeat(257) }],
  ])('refuses %s as capture/too-large', (_name, over) => {
    expect(codeOf(parseCapturePayload(conversation(over)))).toBe('capture/too-large');
  });

  it('accepts a payload right at the per-message limit', () => {
    const messages = [{ role: 'user', text: 'x'.repeat(1_000_000), externalId: null }];
    expect(codeOf(parseCapturePayload(conversation({ messages })))).toBe('ok');
  });
});

describe('paste box and share target', () => {
  it('reads the bookmarklet JSON exactly like a posted payload', () => {
    expect(payloadFromPaste(`  ${JSON.stringify(conversation())}\n`, NOW)).toEqual({ ok: true, value: conversation() });
    const tampered = JSON.stringify(conversation({ url: 'javascript:alert(1)' }));
    expect(codeOf(payloadFromPaste(tampered, NOW))).toBe('capture/invalid');
  });

  it('keeps any other text (JSON included) as a pasted resource', () => {
    const result = payloadFromPaste('\n  First line of notes\nsecond line', NOW);
    expect(result).toEqual({
      ok: true,
      value: {
        type: 'engram-capture',
        version: 1,
        kind: 'resource',
        source: 'paste',
        method: 'paste',
        url: null,
        title: 'First line of notes',
        capturedAt: '2025-01-02T03:04:05.000Z',
        text: 'First line of notes\nsecond line',
      },
    });
    const json = payloadFromPaste('{"a": 1}', NOW);
    expect(json.ok && json.value.kind === 'resource' && json.value.text).toBe('{"a": 1}');
  });

  it('refuses an empty paste and an oversized one before parsing', () => {
    expect(codeOf(payloadFromPaste('   \n ', NOW))).toBe('capture/invalid');
    expect(codeOf(payloadFromPaste('x'.repeat(CAPTURE_LIMITS.maxBytes + 1), NOW))).toBe('capture/too-large');
  });

  it('turns shared title/text/url into a resource, finding a link Android put in text', () => {
    const shared = payloadFromShare({ title: 'Article', text: 'Worth reading', url: 'https://example.org/a' }, NOW);
    expect(shared?.ok && shared.value).toMatchObject({
      kind: 'resource',
      source: 'share',
      title: 'Article',
      text: 'Worth reading',
      url: 'https://example.org/a',
    });
    const linkOnly = payloadFromShare({ text: 'https://example.org/b' }, NOW);
    expect(linkOnly?.ok && linkOnly.value).toMatchObject({
      url: 'https://example.org/b',
      text: 'https://example.org/b',
      title: 'example.org',
    });
    expect(payloadFromShare({ title: '', text: '', url: '' }, NOW)).toBeNull();
    const unsafe = payloadFromShare({ text: 'note', url: 'javascript:alert(1)' }, NOW);
    expect(unsafe?.ok && unsafe.value.url).toBeNull();
  });

  it('titles text by its first line, shortened', () => {
    expect(titleFromText('\n\n  Hello   world \nmore')).toBe('Hello world');
    expect(titleFromText('a'.repeat(200))).toHaveLength(120);
  });
});
