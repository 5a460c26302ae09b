import { describe, expect, it } from 'vitest';
import { conversationTexts } from '../../../src/lib/services/index/bm25-text';
import { vaultUnits } from '../../../workers/recall/vault-units';
import { harnessPool, type Harness } from '../../factories/index-harness';
import { BUDGET, MAPLE, MOSS } from '../../factories/index-fixtures';
import { chatgptExport } from '../../factories/import-generator';

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const fresh = harnessPool();

describe("the app's BM25 reads what the recall engine reads (neighbour windows, date in words)", () => {
  it('indexes each conversation chunk with the same text as the engine unit of that chunk', async () => {
    const h = await fresh();
    await h.importText('maple.txt', MAPLE);
    await h.importText('moss.txt', MOSS);
    await h.importText('budget.txt', BUDGET);
    // A dated export (ChatGPT JSON with create_time): its units carry their date in words.
    const bytes = concat([...chatgptExport({ conversations: 2, targetBytes: 12_000, seed: 3 }).chunks]);
    await h.importFiles([{ name: 'conversations.json', size: bytes.length, bytes }]);
    await h.drain();
    const engine = new Map((await vaultUnits(h.vault)).map((u) => [u.record.id, u.indexText]));
    const conversations = await h.vault.db.conversations.toArray();
    let compared = 0;
    let dated = 0;
    for (const c of conversations) {
      const texts = await conversationTexts(h.vault, c.createdAt ?? null, await h.service.state.chunks.forConversation(c.id));
      for (const [id, text] of texts) {
        expect(text).toBe(engine.get(id));
        compared++;
        if (/^\d{1,2} [A-Z][a-z]+ \d{4}\n/u.test(text)) dated++;
      }
    }
    expect(compared).toBe(await h.vault.db.chunks.count());
    expect(dated).toBeGreaterThan(0);
  });

  it('finds an answer by the words of the question next to it, in the live index and after a rebuild', async () => {
    const h = await fresh();
    await h.importText('budget.txt', BUDGET);
    await h.drain();
    const chunks = await h.vault.db.chunks.toArray();
    const answer = chunks.find((c) => c.text.includes('buses and a day pass'))!;
    const hits = async (service: Harness['service']) => (await service.lexicalSearch('is a rail pass worth it', 10)).map((hit) => hit.id);
    expect(await hits(h.service)).toContain(answer.id);
    await h.service.state.bm25Store.markDirty();
    const reopened = await h.reopen();
    expect(reopened.service.state.bm25Info.loadedFrom).toBe('rebuilt');
    expect(await hits(reopened.service)).toEqual(await hits(h.service));
  });
});
