import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../../../src/lib/core/records';
import { conversationBm25Texts, conversationTextsOf } from '../../../src/lib/services/index/bm25-text';
import { harnessPool, type Harness } from '../../factories/index-harness';
import { BUDGET, MAPLE } from '../../factories/index-fixtures';
import { chatgptExport } from '../../factories/import-generator';
import { concatBytes } from '../../../src/lib/core/vaultfile/bytes';
import { getMessages } from '../../../src/lib/store/messages-store';

const concat = (parts: readonly Uint8Array[]): Uint8Array => concatBytes(parts);

const fresh = harnessPool();

describe('what BM25 reads of a conversation chunk (the one recipe: bm25-text.ts)', () => {
  it('reads the chunk, its date in words and the words of two chunks on each side, at most 60 words each', () => {
    const chunk = (i: number, text: string) =>
      ({ id: `c#${i}`, text, contextText: `Chat — 2023-05-08\nAna: ${text}`, parentId: `m${i}` }) as unknown as ChunkRecord;
    const long = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    const ordered = [
      chunk(0, 'far before'),
      chunk(1, long),
      chunk(2, 'the question about rail passes'),
      chunk(3, 'yes, buy one'),
      chunk(4, 'later'),
      chunk(5, 'much later'),
    ];
    const texts = conversationBm25Texts(ordered, () => Date.UTC(2023, 4, 8, 13, 56));
    const middle = texts.get('c#2')!;
    expect(middle.split('\n')[0]).toBe('8 May 2023');
    expect(middle).toContain('Ana: the question about rail passes');
    expect(middle).toContain('far before');
    expect(middle).toContain('yes, buy one');
    expect(middle).toContain('later');
    expect(middle).not.toContain('much later');
    // A long neighbour gives its 60 words nearest the chunk (the end of an earlier one), not its speaker's name.
    expect(middle).toContain('w99');
    expect(middle).toContain('w40');
    expect(middle).not.toContain('w39 ');
    expect(middle.match(/Ana:/gu)).toHaveLength(1);
    expect(texts.get('c#0')!).not.toContain('yes, buy one');
    expect(conversationBm25Texts([chunk(0, 'alone')], () => null).get('c#0')).toBe('Chat — 2023-05-08\nAna: alone');
  });

  it('indexes every conversation chunk of the vault with its window, dated when the conversation is', async () => {
    const h = await fresh();
    await h.importText('maple.txt', MAPLE);
    // A dated export (ChatGPT JSON with create_time): its chunks carry their date in words.
    const bytes = concat([...chatgptExport({ conversations: 2, targetBytes: 12_000, seed: 3 }).chunks]);
    await h.importFiles([{ name: 'conversations.json', size: bytes.length, bytes }]);
    await h.drain();
    let dated = 0;
    let compared = 0;
    for (const c of await h.vault.db.conversations.toArray()) {
      const chunks = await h.service.parts.chunks.forConversation(c.id);
      const messages = await getMessages(
        h.vault.db,
        chunks.map((chunk) => chunk.parentId),
      );
      const texts = conversationTextsOf(new Map(messages.flatMap((m) => (m ? [[m.id, m] as const] : []))), c.createdAt ?? null, chunks);
      for (const [id, text] of texts) {
        compared++;
        if (/^\d{1,2} [A-Z][a-z]+ \d{4}\n/u.test(text)) dated++;
        // What the live index holds for the chunk is exactly the recipe's text: its own words find it.
        const words = text
          .split(/\s+/u)
          .filter((w) => w.length > 6)
          .slice(0, 4)
          .join(' ');
        if (words) expect((await h.service.lexicalSearch(words, 50)).map((hit) => hit.id)).toContain(id);
      }
    }
    expect(compared).toBe(await h.vault.db.chunks.count());
    expect(dated).toBeGreaterThan(0);
  });

  it("keeps a named transcript's speakers in what the chunks say", async () => {
    const h = await fresh();
    await h.importText(
      'named.txt',
      'Caroline: I started a pottery class on Tuesdays.\n\nMelanie: Nice! What are you making?\n\nCaroline: A set of bowls.',
    );
    await h.drain();
    const chunks = await h.vault.db.chunks.toArray();
    expect(chunks.some((c) => c.contextText?.includes('Caroline: I started a pottery class'))).toBe(true);
    expect(chunks.some((c) => c.contextText?.includes('Melanie: Nice!'))).toBe(true);
  });

  it('finds an answer by the words of the question next to it, in the live index and after a rebuild', async () => {
    const h = await fresh();
    await h.importText('budget.txt', BUDGET);
    await h.drain();
    const chunks = await h.vault.db.chunks.toArray();
    const answer = chunks.find((c) => c.text.includes('buses and a day pass'))!;
    const hits = async (service: Harness['service']) => (await service.lexicalSearch('is a rail pass worth it', 10)).map((hit) => hit.id);
    expect(await hits(h.service)).toContain(answer.id);
    await h.service.parts.bm25.edit(() => undefined);
    const reopened = await h.reopen();
    expect(reopened.service.parts.bm25.info.loadedFrom).toBe('rebuilt');
    expect(await hits(reopened.service)).toEqual(await hits(h.service));
  });

  it('rebuilds over more conversations than one read step with the answers of the live index', async () => {
    const h = await fresh();
    const bytes = concat([...chatgptExport({ conversations: 60, targetBytes: 90_000, seed: 11 }).chunks]);
    await h.importFiles([{ name: 'conversations.json', size: bytes.length, bytes }]);
    await h.drain();
    const conversations = await h.vault.db.conversations.count();
    expect(conversations).toBeGreaterThan(50);
    const chunks = await h.vault.db.chunks.toArray();
    // One question per conversation, from the words of one of its chunks.
    const questions = [...new Map(chunks.map((c) => [c.conversationId, c.text])).values()].map((text) =>
      text
        .split(/\s+/u)
        .filter((w) => w.length > 5)
        .slice(0, 5)
        .join(' '),
    );
    // Every hit with its score, ties in id order (documents added in another order tie in another order).
    const answers = async (service: Harness['service']) =>
      Promise.all(
        questions.map(async (q) =>
          (await service.lexicalSearch(q, 10_000))
            .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
            .map((hit) => `${hit.id} ${hit.score.toFixed(6)}`),
        ),
      );
    const live = await answers(h.service);
    await h.service.parts.bm25.edit(() => undefined);
    const reopened = await h.reopen();
    expect(reopened.service.parts.bm25.info.loadedFrom).toBe('rebuilt');
    expect(reopened.service.parts.bm25.size).toBe(h.service.parts.bm25.size);
    expect(live.every((hits) => hits.length > 0)).toBe(true);
    expect(await answers(reopened.service)).toEqual(live);
  });
});
