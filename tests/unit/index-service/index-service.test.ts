import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INDEX_JOBS, indexUpdateJob } from '../../../src/lib/core/api/index-api';
import { lexicalVector } from '../../../src/lib/models/lexical-embedder';
import { harnessPool, type Harness } from '../../factories/index-harness';
import { BRANCHED_CHAT, BUDGET, DOCUMENT, MAPLE, MOSS, visibleMessageIds } from '../../factories/index-fixtures';
import { conversation, message } from '../../factories/records';
import { allMessages } from '../../../src/lib/store/messages-store';

const SAMPLES = resolve(process.cwd(), '../shared/data/exports');
const samples = [
  'chatgpt/librechat_chatgpt-tree.json',
  'chatgpt/librechat_chatgpt-modern-export.json',
  'claude/polylogue_claude-ai_showcase-03.json',
];
const present = samples.every((s) => existsSync(resolve(SAMPLES, s)));

const fresh = harnessPool();

/** The fixtures (three chats, one with a hidden message and an off-branch answer, and a document); with `samples`, the sample exports too. */
async function importAll(h: Harness, options: { samples?: boolean } = {}): Promise<void> {
  await h.importText('maple.txt', MAPLE);
  await h.importText('moss.txt', MOSS);
  await h.importText('handbook.md', DOCUMENT);
  await h.importText('branched.json', BRANCHED_CHAT);
  if (options.samples) {
    await h.importFiles(
      samples.map((path) => {
        const bytes = readFileSync(resolve(SAMPLES, path));
        return { name: path, size: bytes.length, bytes };
      }),
    );
  }
  await h.drain();
}

/** Every visible message is in exactly one message chunk, and no other message is; returns how many are visible. */
async function expectExactCover(h: Harness): Promise<number> {
  const visible = await visibleMessageIds(h.vault);
  const cover = new Map<string, number>();
  const chunks = (await h.vault.db.chunks.toArray()).filter((c) => c.parentType === 'message');
  expect(chunks.length).toBeGreaterThan(0);
  for (const chunk of chunks) {
    for (const id of chunk.messageIds) cover.set(id, (cover.get(id) ?? 0) + 1);
    expect(chunk.hlc).toMatch(/\S/u);
    expect(chunk.contextText).toContain(chunk.text.split('\n')[0]!.slice(0, 20));
  }
  expect([...cover.keys()].sort()).toEqual([...visible].sort());
  expect([...cover.values()].every((n) => n === 1)).toBe(true);
  return visible.size;
}

describe('index service on imported chats and documents', () => {
  it('covers every visible message with exactly one chunk, and nothing else', async () => {
    const h = await fresh();
    await importAll(h);
    expect(await expectExactCover(h)).toBe(9);
  });

  it.skipIf(!present)(
    `covers every visible message of three sample exports too, and leaves their hidden and off-branch messages out (needs ${SAMPLES})`,
    async () => {
      const h = await fresh();
      await importAll(h, { samples: true });
      expect(await expectExactCover(h)).toBeGreaterThan(20);
      const chunked = new Set((await h.vault.db.chunks.toArray()).flatMap((c) => c.messageIds));
      const off = await (await allMessages(h.vault.db)).filter((m) => !m.branch.onVisiblePath || m.hidden);
      // The fixture chat holds two such messages; the samples add their own.
      expect(off.length).toBeGreaterThan(2);
      expect(off.filter((m) => chunked.has(m.id))).toEqual([]);
    },
  );

  it('chunks a pasted document on its headings as a resource', async () => {
    const h = await fresh();
    await importAll(h);
    const resources = (await h.vault.db.chunks.toArray()).filter((c) => c.parentType === 'resource');
    expect(resources.map((c) => c.headingPath.join(' > ')).sort()).toEqual([
      'Garden maintenance handbook',
      'Garden maintenance handbook > Cleaning the pond',
      'Garden maintenance handbook > Raking the gravel',
    ]);
    expect(resources.every((c) => c.tier === 'resource' && c.conversationId === null)).toBe(true);
    const [hit] = await h.service.lexicalSearch('koi pond filter', 3);
    const [record] = await h.service.candidates([hit!.id]);
    expect(record).toMatchObject({
      kind: 'chunk',
      tier: 'resource',
      sourceTitle: 'Garden maintenance handbook',
      headingPath: ['Garden maintenance handbook', 'Cleaning the pond'],
    });
  });

  it('finds a known turn with BM25 and with the lexical vectors, and materializes it as a candidate', async () => {
    const h = await fresh();
    await importAll(h);
    const [top] = await h.service.lexicalSearch('mist the moss daily in dry weather', 5);
    const [candidate] = await h.service.candidates([top!.id]);
    expect(candidate!.text).toContain('Mist it daily');
    expect(candidate!.sourceTitle).toBe('What soil does moss need in a Japanese garden?');
    const query = await h.service.embedQuery('pruning a maple tree in winter');
    expect(Array.from(query)).toEqual(Array.from(lexicalVector('pruning a maple tree in winter')));
    const hits = await h.service.vectorSearch(query, 3);
    const texts = (await h.service.candidates(hits.map((x) => x.id))).map((c) => c.text);
    expect(texts.some((t) => t.includes('Prune in late winter'))).toBe(true);
    const sims = await h.service.similarity(query, [hits[0]!.id, 'no-such-id']);
    expect(sims.get(hits[0]!.id)).toBeCloseTo(hits[0]!.similarity, 4);
    expect(sims.has('no-such-id')).toBe(false);
    const status = h.service.status('leader', { paused: false, running: null, pending: 0 });
    expect(status.serving).toMatchObject({ embedderId: 'lexical-v1-384', kind: 'lexical', count: status.documents.total });
    expect(status.bm25.documents).toBe(status.documents.total);
    expect(status.neuralCoverage).toEqual({ embedderId: null, covered: 0, total: status.documents.total });
    expect(status.health?.recallAt10).toBeGreaterThanOrEqual(0.95);
  });

  it('leaves staged rows of an unfinished import and hidden or off-branch messages out', async () => {
    const h = await fresh();
    await importAll(h);
    // An import still in progress: its conversation is staged, which hides its messages.
    await h.vault.db.conversations.put(conversation({ id: 'conv-staged', externalId: 'staged-1', state: 'staged' }));
    await h.vault.db.messages.bulkPut([
      message({ id: 'staged-m1', conversationId: 'conv-staged', text: 'Staged question about wisteria trellis rot.' }),
      message({ id: 'staged-m2', conversationId: 'conv-staged', role: 'assistant', ordinal: 1, text: 'Staged answer about wisteria.' }),
    ]);
    await h.vault.jobs.enqueue(indexUpdateJob({ conversationIds: ['conv-staged'] }), Date.now());
    await h.drain();
    const chunked = new Set((await h.vault.db.chunks.toArray()).flatMap((c) => c.messageIds));
    expect(chunked.size).toBeGreaterThan(0);
    expect(['staged-m1', 'staged-m2'].filter((id) => chunked.has(id))).toEqual([]);
    expect(await h.service.lexicalSearch('wisteria trellis rot', 5)).toEqual([]);
    // The branched fixture chat holds a hidden system message and a regenerated answer off the thread.
    const off = await (await allMessages(h.vault.db)).filter((m) => !m.branch.onVisiblePath || m.hidden);
    expect(off.some((m) => m.hidden)).toBe(true);
    expect(off.some((m) => !m.branch.onVisiblePath && m.text.includes('Repot it in autumn'))).toBe(true);
    expect(off.filter((m) => chunked.has(m.id))).toEqual([]);
  });

  it('is idempotent: the same update again rewrites nothing and embeds nothing', async () => {
    const h = await fresh();
    await importAll(h);
    const before = await h.vault.db.chunks.toArray();
    const vectorsBefore = await h.vault.db.vectors.toArray();
    const conversationIds = (await h.vault.db.conversations.toCollection().primaryKeys()).map(String);
    const noteIds = (await h.vault.db.notes.toCollection().primaryKeys()).map(String);
    await h.vault.jobs.enqueue(indexUpdateJob({ conversationIds, noteIds }), Date.now());
    await h.vault.jobs.enqueue(indexUpdateJob({ conversationIds, noteIds }), Date.now());
    expect(await h.drain()).toBeGreaterThanOrEqual(3);
    expect(await h.vault.db.chunks.toArray()).toEqual(before);
    const after = await h.vault.db.vectors.toArray();
    expect(after.map((v) => [v.recordId, v.label])).toEqual(vectorsBefore.map((v) => [v.recordId, v.label]));
    const embeds = (await h.vault.db.jobs.where('type').equals(INDEX_JOBS.embed).toArray()).sort((a, b) => a.updatedAt - b.updatedAt);
    expect(embeds.at(-1)!.result).toMatchObject({ embedded: 0 });
  });

  it('embeds kept notes and resources first, then the most recent conversations', async () => {
    const order: string[] = [];
    const h = await fresh({ batch: { lexical: 1, neural: 1 } });
    await h.importText('budget.txt', BUDGET);
    await h.importText('maple.txt', MAPLE);
    await h.importText('handbook.md', DOCUMENT);
    // Dates: the budget conversation is the most recent one.
    const [budget, maple] = await Promise.all([
      h.vault.db.conversations.filter((c) => c.title.includes('Kyoto')).first(),
      h.vault.db.conversations.filter((c) => c.title.includes('maple')).first(),
    ]);
    await h.vault.db.conversations.update(budget!.id, { updatedAt: 2_000 });
    await h.vault.db.conversations.update(maple!.id, { updatedAt: 1_000 });
    await h.vault.jobs.enqueue(indexUpdateJob({ conversationIds: [budget!.id, maple!.id] }), Date.now());
    await h.drain();
    // Forget every vector: the next session embeds everything again, in order.
    await h.vault.db.vectors.clear();
    const reopened = await h.reopen({ batch: { lexical: 1, neural: 1 } });
    const vectors = reopened.service.parts.vectors;
    const put = vectors.put.bind(vectors);
    vectors.put = async (rows) => {
      order.push(...rows.map((r) => r.recordId));
      return put(rows);
    };
    await reopened.drain();
    const kinds = await Promise.all(
      order.map(async (id) => {
        const chunk = await h.vault.db.chunks.get(id);
        return chunk!.parentType === 'resource' ? 'resource' : chunk!.conversationId === budget!.id ? 'budget' : 'maple';
      }),
    );
    const firstOf = (k: (typeof kinds)[number]) => kinds.indexOf(k);
    const lastOf = (k: (typeof kinds)[number]) => kinds.lastIndexOf(k);
    expect(lastOf('resource')).toBeLessThan(firstOf('budget'));
    expect(lastOf('budget')).toBeLessThan(firstOf('maple'));
  });
});
