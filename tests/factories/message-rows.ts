import type { MessageRecord } from '../../src/lib/core/records';

const WORDS =
  'the garden path stone moss maple light shadow water bridge lantern gravel pine season winter spring plan budget deploy server index memory vault recall prompt model token chunk'.split(
    ' ',
  );

/**
 * `count` message rows spread over conversations of `perConversation` messages, with text of
 * realistic length (~40 words). Deterministic; runs in Node and in the browser (benchmarks).
 */
export function makeMessageRows(count: number, perConversation = 1_000): MessageRecord[] {
  const rows: MessageRecord[] = new Array(count);
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  for (let i = 0; i < count; i++) {
    const words: string[] = [];
    for (let w = 0; w < 40; w++) words.push(WORDS[next() % WORDS.length]!);
    const conversation = Math.floor(i / perConversation);
    rows[i] = {
      id: `msg_${i.toString(36).padStart(8, '0')}`,
      conversationId: `conv_${conversation}`,
      externalId: `node-${i}`,
      role: i % 2 === 0 ? 'user' : 'assistant',
      text: words.join(' '),
      createdAt: 1_700_000_000_000 + i * 1000,
      ordinal: i % perConversation,
      branch: { onVisiblePath: true, parentExternalId: i % perConversation === 0 ? null : `node-${i - 1}` },
      hidden: false,
      contentHash: (next().toString(16) + next().toString(16)).padEnd(64, '0'),
      flags: [],
      importId: 'bench',
      state: 'visible',
      hlc: '0000000000001:0000:bench',
    };
  }
  return rows;
}
