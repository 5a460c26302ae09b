/**
 * Recall credits a chunk to its speakers. A chunk stored with them names them itself (no message,
 * and so no message block, is read); one stored before chunks carried them is credited from its
 * messages, as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../../../src/lib/core/records';
import { readCandidates } from '../../../src/lib/services/index/candidates';
import { conversationMessages } from '../../../src/lib/store/messages-store';
import type { Vault } from '../../../src/lib/store/vault';
import { freshVault, GARDEN_TRANSCRIPT, importText } from '../extract-job/helpers';

const vaults: Vault[] = [];
afterEach(() => {
  for (const v of vaults.splice(0)) v.db.close();
});

describe('readCandidates speakers', () => {
  it('takes a chunk’s own speakers, and reads the messages only for a chunk without them', async () => {
    const v = await freshVault();
    vaults.push(v);
    const [conversationId] = await importText(v, GARDEN_TRANSCRIPT);
    const [first, second] = await conversationMessages(v.db, conversationId!);
    expect([first?.role, second?.role]).toEqual(['user', 'assistant']);
    const chunk = (id: string, messageIds: string[], speakers?: string[]): ChunkRecord => ({
      id,
      parentType: 'message',
      parentId: messageIds[0]!,
      conversationId: conversationId!,
      messageIds,
      ...(speakers ? { speakers } : {}),
      text: 'When should I prune the maple? In late winter.',
      headingPath: [],
      tokenCount: 9,
      tier: 'chat',
      contentHash: 'h',
      createdAt: 1,
      hlc: '',
    });
    // The stored names win (they differ from the messages' here, so the test tells which was read).
    await v.db.chunks.bulkPut([chunk('new#0', [first!.id, second!.id], ['Stored']), chunk('old#0', [first!.id, second!.id])]);
    const candidates = await readCandidates(v, ['new#0', 'old#0']);
    expect(candidates.map((c) => [c.id, c.speakers])).toEqual([
      ['new#0', ['Stored']],
      ['old#0', ['User', 'Assistant']],
    ]);
  });
});
