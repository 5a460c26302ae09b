import { loadTokenCounter } from '../../../src/lib/core/text/token-count';
import { describe, expect, it } from 'vitest';
import { toChunkRecord } from '../../../src/lib/core/chunk/chunk-record';
import { chunkConversation } from '../../../src/lib/core/chunk/conversation-chunker';
import { contentHash, sha256Hex } from '../../../src/lib/core/text/normalize';

// The app loads the token counter on demand (core/text/token-count.ts); these tests call core directly.
await loadTokenCounter();

describe('toChunkRecord', () => {
  it('seals a draft into the stored shape: content hash of the raw text, context hash of what is embedded', async () => {
    const [draft] = chunkConversation({ id: 'c1', title: 'T', createdAt: null }, [
      { id: 'm1', role: 'user', text: 'Prune the maple in late winter, before the buds open.', createdAt: null, ordinal: 0 },
    ]);
    const record = await toChunkRecord(draft!, { tier: 'chat', hlc: 'h', createdAt: 5 });
    expect(record).toEqual({
      id: 'm1#0',
      parentType: 'message',
      parentId: 'm1',
      conversationId: 'c1',
      messageIds: ['m1'],
      speakers: ['user'],
      text: draft!.text,
      headingPath: [],
      tokenCount: draft!.tokenCount,
      tier: 'chat',
      contentHash: await contentHash(draft!.text),
      createdAt: 5,
      hlc: 'h',
      contextText: draft!.contextText,
      contextHash: await sha256Hex(draft!.contextText),
      spans: draft!.spans,
      flags: [],
    });
    expect(draft!.contextText).toBe('T\nUser: Prune the maple in late winter, before the buds open.');
  });

  it('names the speakers of the messages it covers, once each, the role where a message has no name', () => {
    const drafts = chunkConversation({ id: 'c1', title: 'T', createdAt: null }, [
      { id: 'm1', role: 'user', text: 'Hi.', createdAt: null, ordinal: 0, speaker: 'Caroline' },
      { id: 'm2', role: 'assistant', text: 'Hello.', createdAt: null, ordinal: 1 },
      { id: 'm3', role: 'user', text: 'Ok.', createdAt: null, ordinal: 2, speaker: 'Caroline' },
    ]);
    // Three short messages merge into one chunk.
    expect(drafts.map((d) => d.speakers)).toEqual([['Caroline', 'assistant']]);
  });
});
