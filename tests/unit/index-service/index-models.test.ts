import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EmbedderChoice } from '../../../src/lib/core/api/embedder';
import { indexUpdateJob } from '../../../src/lib/core/api/index-api';
import type { NoteRecord } from '../../../src/lib/core/records';
import { contentHash } from '../../../src/lib/core/text/normalize';
import { TINY_TEST_MODEL } from '../../../src/lib/models/embedding-models';
import { lexicalVector } from '../../../src/lib/models/lexical-embedder';
import { staticModelLibrary } from '../../../src/lib/models/model-library';
import type { EmbedderHost } from '../../../src/lib/services/index/embedder-host';
import { inProcessEmbedderHost } from '../../../src/lib/services/index/in-process-host';
import { makeTestModel } from '../../../scripts/make-test-model';
import { harnessPool, importFixtures, waitUntil, type Harness } from '../../factories/index-harness';
import { conversationMessages, updateMessage } from '../../../src/lib/store/messages-store';

const ROOT = resolve('static/test-models');
const TINY: EmbedderChoice = { kind: 'transformers', spec: TINY_TEST_MODEL, origin: 'origin', path: ROOT };
const TINY_ID = 'transformers:tiny-bert:fp32';

beforeAll(() => {
  if (!existsSync(join(ROOT, 'tiny-bert', 'onnx', 'model.onnx'))) makeTestModel(ROOT);
});

const fresh = harnessPool();

async function importAll(h: Harness): Promise<void> {
  await importFixtures(h);
  await h.drain();
}

/** The real hosts, with the tiny model held after `after` batches until `open()`. */
function gatedHost(after: number): { host: EmbedderHost; open: () => void } {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let batches = 0;
  const base = inProcessEmbedderHost();
  return {
    open: () => open(),
    host: {
      async load(choice, onProgress) {
        const embedder = await base.load(choice, onProgress);
        if (choice.kind === 'lexical') return embedder;
        return {
          id: embedder.id,
          dims: embedder.dims,
          kind: embedder.kind,
          device: embedder.device,
          embedQueries: (texts) => embedder.embedQueries(texts),
          embed: async (texts, options) => {
            if (++batches > after) await gate;
            return embedder.embed(texts, options);
          },
        };
      },
    },
  };
}

describe('embedders and the vector index', () => {
  it('a model switch builds in the background: the old index serves until the new one is complete, never mixed', async () => {
    const gated = gatedHost(2);
    const h = await fresh({ host: gated.host, batch: { lexical: 2, neural: 2 }, library: staticModelLibrary([TINY]) });
    await importAll(h);
    const total = h.service.parts.catalog.size;
    await h.service.useEmbedder(TINY);
    const running = h.drain();
    await waitUntil(async () => (await h.vault.db.vectors.where('modelId').equals(TINY_ID).count()) >= 4);
    const mid = h.service.status('leader', { paused: false, running: null, pending: 1 });
    expect(mid.serving).toMatchObject({ embedderId: 'lexical-v1-384', dims: 384, count: total });
    expect(mid.target).toMatchObject({ embedderId: TINY_ID, dims: 32, count: 4, total });
    expect(mid.neuralCoverage).toEqual({ embedderId: TINY_ID, covered: 4, total });
    const lexicalHits = await h.service.vectorSearch(await h.service.embedQuery('koi pond filter'), 3);
    expect(lexicalHits).toHaveLength(3);
    await expect(h.service.vectorSearch(new Float32Array(32), 3)).rejects.toMatchObject({ code: 'index/failed' });
    expect((await h.service.embedQuery('moss')).length).toBe(384);
    expect((await h.service.models()).find((m) => m.embedderId === TINY_ID)).toMatchObject({ target: true, serving: false });

    gated.open();
    await running;
    const done = h.service.status('leader', { paused: false, running: null, pending: 0 });
    expect(done.serving).toMatchObject({ embedderId: TINY_ID, dims: 32, count: total });
    expect(done.target).toBeNull();
    expect(await h.vault.settings.get('index.serving')).toEqual(TINY);
    expect(await h.vault.db.vectors.where('modelId').equals('lexical-v1-384').count()).toBe(0);
    const rows = await h.vault.db.vectors.toArray();
    expect(rows).toHaveLength(total);
    expect(rows.every((r) => r.modelId === TINY_ID && r.dims === 32 && r.vector.length === 32)).toBe(true);
    const query = await h.service.embedQuery('koi pond filter');
    expect(query.length).toBe(32);
    expect(await h.service.vectorSearch(query, 3)).toHaveLength(3);
    await expect(h.service.vectorSearch(lexicalVector('koi'), 3)).rejects.toMatchObject({ code: 'index/failed' });
    expect(done.health).toMatchObject({ embedderId: TINY_ID });
    expect(done.health!.recallAt10).toBeGreaterThanOrEqual(0.95);

    // After a reload the tiny model still serves, from its saved index.
    const again = await h.reopen({ host: inProcessEmbedderHost() });
    expect(again.service.parts.indexes.serving.choice).toEqual(TINY);
    expect(again.service.parts.indexes.serving.model!.index.count).toBe(total);
    expect(again.service.parts.notices.list).toEqual([]);
  });

  it('deleting the serving model hands over to the lexical index once that is complete', async () => {
    const h = await fresh({ library: staticModelLibrary([TINY]) });
    await importAll(h);
    await h.service.useEmbedder(TINY);
    await h.drain();
    expect(h.service.parts.indexes.serving.choice).toEqual(TINY);
    await h.service.deleteModel(TINY_ID);
    expect(h.service.parts.indexes.serving.choice).toEqual(TINY); // still serving while lexical builds
    expect(h.service.parts.indexes.target?.choice).toEqual({ kind: 'lexical' });
    await h.drain();
    expect(h.service.parts.indexes.serving.choice).toEqual({ kind: 'lexical' });
    expect(await h.vault.db.vectors.where('modelId').equals(TINY_ID).count()).toBe(0);
  });

  it('re-embeds a chunk whose text changed (stale content hash) and keeps the others', async () => {
    const h = await fresh();
    await importAll(h);
    const moss = (await h.vault.db.conversations.filter((c) => c.title.includes('moss')).first())!;
    const message = (await conversationMessages(h.vault.db, moss.id)).find((m) => m.text.includes('Mist'))!;
    const chunk = (await h.vault.db.chunks.filter((c) => c.messageIds.includes(message.id)).first())!;
    const before = (await h.vault.db.vectors.get([chunk.id, 'lexical-v1-384']))!;
    const others = (await h.vault.db.vectors.toArray()).filter((r) => r.recordId !== chunk.id);
    const text = 'Water the moss with a fine spray of rainwater every evening.';
    await updateMessage(h.vault.db, message.id, { text, contentHash: await contentHash(text) });
    await h.vault.jobs.enqueue(indexUpdateJob({ conversationIds: [moss.id] }), Date.now());
    await h.drain();
    const after = (await h.vault.db.vectors.get([chunk.id, 'lexical-v1-384']))!;
    const rechunked = (await h.vault.db.chunks.get(chunk.id))!;
    expect(after.contentHash).toBe(rechunked.contextHash);
    expect(after.contentHash).not.toBe(before.contentHash);
    expect(Array.from(after.vector)).not.toEqual(Array.from(before.vector));
    const [hit] = await h.service.vectorSearch(await h.service.embedQuery('fine spray of rainwater'), 1);
    expect(hit!.id).toBe(chunk.id);
    const unchanged = (await h.vault.db.vectors.toArray()).filter((r) => r.recordId !== chunk.id);
    expect(unchanged.map((r) => [r.recordId, r.label, r.contentHash])).toEqual(others.map((r) => [r.recordId, r.label, r.contentHash]));
  });

  it('indexes a kept atomic note as its own document, and drops it when archived', async () => {
    const h = await fresh();
    await importAll(h);
    const note: NoteRecord = {
      id: 'note_bonsai',
      text: 'Decided to repot the bonsai every second spring.',
      category: 'Decisions',
      status: 'kept',
      tier: 'engram',
      confidence: 1,
      sourceMessageIds: [],
      conversationId: null,
      createdAt: 5,
      updatedAt: 5,
      keptAt: 5,
      supersedes: null,
      supersededBy: null,
      accessCount: 2,
      lastAccessedAt: null,
      pinned: true,
      contentHash: await contentHash('Decided to repot the bonsai every second spring.'),
      flags: [],
      hlc: '',
    };
    const reason = { actor: 'user' as const, action: 'keep', why: 'test', at: 5 };
    await h.vault.notes.save(note, reason);
    await h.vault.jobs.enqueue(indexUpdateJob({ noteIds: [note.id] }), Date.now());
    await h.drain();
    expect((await h.service.lexicalSearch('repot bonsai', 1))[0]!.id).toBe(note.id);
    expect(await h.vault.db.vectors.get([note.id, 'lexical-v1-384'])).toBeDefined();
    expect(await h.service.candidates([note.id])).toEqual([
      expect.objectContaining({ kind: 'note', tier: 'engram', pinned: true, accessCount: 2 }),
    ]);
    await h.vault.notes.save({ ...note, status: 'archived' }, { ...reason, action: 'archive' });
    await h.vault.jobs.enqueue(indexUpdateJob({ noteIds: [note.id] }), Date.now());
    await h.drain();
    expect(await h.service.lexicalSearch('repot bonsai', 1)).toEqual([]);
    expect(await h.vault.db.vectors.get([note.id, 'lexical-v1-384'])).toBeUndefined();
    expect(await h.service.candidates([note.id])).toEqual([]);
  });
});
