/**
 * The update and rebuild jobs re-chunk a step of conversations at a time: their rows read in one
 * transaction (the next step's read ahead), their chunks written in one. A step must do exactly
 * what re-chunking each conversation on its own did: a conversation that left the vault loses its
 * chunks and vectors while the others in its step keep theirs, and a second run changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { reindexConversations, stepReader } from '../../../src/lib/services/index/updates';
import { readConversations } from '../../../src/lib/services/index/documents';
import { harnessPool } from '../../factories/index-harness';
import { BRANCHED_CHAT, MAPLE, MOSS } from '../../factories/index-fixtures';

const fresh = harnessPool();

async function indexed() {
  const h = await fresh();
  await h.importText('maple.txt', MAPLE);
  await h.importText('moss.txt', MOSS);
  await h.importText('branched.json', BRANCHED_CHAT);
  await h.drain();
  const ids = (await h.vault.db.conversations.toCollection().primaryKeys()).map(String).sort();
  expect(ids).toHaveLength(3);
  return { h, ids };
}

const rowsOf = async (h: Awaited<ReturnType<typeof indexed>>['h']) => ({
  chunks: await h.vault.db.chunks.orderBy(':id').toArray(),
  vectors: (await h.vault.db.vectors.toArray()).map((v) => v.recordId).sort(),
});

describe('re-chunking a step of conversations', () => {
  it('changes nothing when nothing changed', async () => {
    const { h, ids } = await indexed();
    const before = await rowsOf(h);
    expect(before.chunks.length).toBeGreaterThan(3);
    expect(await reindexConversations(h.service.parts, ids)).toEqual({ added: 0, changed: 0, removed: 0 });
    expect(await rowsOf(h)).toEqual(before);
  });

  it('drops the chunks and vectors of a conversation that left the vault, and only those', async () => {
    const { h, ids } = await indexed();
    const [gone, ...kept] = ids as [string, ...string[]];
    const before = await rowsOf(h);
    const goneChunks = before.chunks.filter((c) => c.conversationId === gone).map((c) => c.id);
    expect(goneChunks.length).toBeGreaterThan(0);
    await h.vault.db.conversations.delete(gone);

    const counts = await reindexConversations(h.service.parts, ids);

    expect(counts).toEqual({ added: 0, changed: 0, removed: goneChunks.length });
    const after = await rowsOf(h);
    expect(after.chunks).toEqual(before.chunks.filter((c) => c.conversationId !== gone));
    expect(after.vectors).toEqual(before.vectors.filter((id) => !goneChunks.includes(id)));
    for (const id of goneChunks) expect(h.service.parts.catalog.has(id)).toBe(false);
    for (const c of after.chunks) expect(kept).toContain(c.conversationId);
  });

  it('reads a step ahead, and reads afresh when the step asked is not the one read ahead', async () => {
    const { h, ids } = await indexed();
    const read = stepReader(h.service.parts);
    const idsOf = (rows: { id: string }[]) => rows.map((r) => r.id);
    expect(idsOf(await read([ids[0]!], [ids[1]!]))).toEqual([ids[0]]);
    // The step read ahead, with what a direct read gives.
    const ahead = await read([ids[1]!], [ids[2]!]);
    expect(ahead).toEqual(await readConversations(h.vault, [ids[1]!]));
    // Not the step read ahead (ids[2]): read afresh.
    expect(idsOf(await read([ids[0]!, ids[1]!], []))).toEqual([ids[0], ids[1]]);
  });
});
