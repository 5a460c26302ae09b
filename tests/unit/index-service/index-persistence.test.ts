import { describe, expect, it } from 'vitest';
import { indexRebuildJob } from '../../../src/lib/core/api/index-api';
import type { VectorIndexManifest } from '../../../src/lib/store/vector-index-manifest';
import { BM25_RECIPE } from '../../../src/lib/services/index/bm25-text';
import type { EmbedderHost } from '../../../src/lib/services/index/embedder-host';
import { inProcessEmbedderHost } from '../../../src/lib/services/index/in-process-host';
import { indexName } from '../../../src/lib/services/index/model-index';
import { harnessPool, importFixtures, waitUntil, type Harness } from '../../factories/index-harness';

const fresh = harnessPool();

const QUERIES = ['prune the maple lightly', 'koi pond filter', 'rail pass between cities', 'acidic soil for moss'];

async function answers(h: Harness) {
  const out: string[][] = [];
  for (const q of QUERIES) {
    out.push((await h.service.lexicalSearch(q, 3)).map((x) => x.id));
    out.push((await h.service.vectorSearch(await h.service.embedQuery(q), 3)).map((x) => x.id));
  }
  return out;
}

/** The lexical embedder, stuck before batch `after + 1` until `crash()` (a tab closed mid-job). */
function stallingHost(after: number): { host: EmbedderHost; crash: () => void } {
  let batches = 0;
  let crash: () => void = () => undefined;
  const stalled = new Promise<never>((_, reject) => (crash = () => reject(new Error('the tab was closed'))));
  stalled.catch(() => undefined);
  return {
    crash: () => crash(),
    host: {
      async load(choice) {
        const base = await inProcessEmbedderHost().load(choice);
        return {
          ...base,
          embed: async (texts, options) => {
            if (++batches > after) await stalled;
            return base.embed(texts, options);
          },
        };
      },
    },
  };
}

describe('index persistence', () => {
  it('a small vault is an int8 scan: saved as a manifest alone, filled from the vectors table on reload, same answers', async () => {
    const h = await fresh();
    await importFixtures(h);
    await h.drain();
    const model = h.service.parts.indexes.serving.model!;
    expect(model.index.structure).toBe('int8');
    const saved = (await h.cache.manifests.get(model.name))!;
    expect(saved).toMatchObject({ structure: 'int8', labels: [], recordIds: [] });
    const before = await answers(h);
    const again = await h.reopen();
    const reopened = again.service.parts.indexes.serving.model!;
    expect(reopened.index.structure).toBe('int8');
    expect(reopened.index.count).toBe(again.service.parts.catalog.size);
    expect(again.service.parts.notices.list).toEqual([]);
    expect(await answers(again)).toEqual(before);
    expect(again.service.status('leader', { paused: false, running: null, pending: 0 }).serving).toMatchObject({
      structure: 'int8',
      ef: 0,
    });
  });

  it('a vault saved as HNSW reopens as an int8 scan without a notice, and one that grew past the threshold as HNSW', async () => {
    const h = await fresh({ vectorStructure: 'hnsw' });
    await importFixtures(h);
    await h.drain();
    const before = await answers(h);
    expect(h.service.parts.indexes.serving.model!.index.structure).toBe('hnsw');
    const scan = await h.reopen({ vectorStructure: 'auto' });
    expect(scan.service.parts.indexes.serving.model!.index.structure).toBe('int8');
    expect(scan.service.parts.notices.list).toEqual([]);
    expect(await answers(scan)).toEqual(before);
    // The other way (as when a vault passes INT8_SCAN_UP_TO vectors): a graph, built from the rows.
    const graph = await h.reopen({ vectorStructure: 'hnsw' });
    expect(graph.service.parts.indexes.serving.model!.index.structure).toBe('hnsw');
    expect(graph.service.parts.notices.list).toEqual([]);
    expect(await answers(graph)).toEqual(before);
  });

  it('reloads the saved BM25 and vector index and answers the same', async () => {
    const h = await fresh();
    await importFixtures(h);
    await h.drain();
    const before = await answers(h);
    const again = await h.reopen();
    expect(again.service.parts.bm25.info.loadedFrom).toBe('saved');
    expect(again.service.parts.notices.list).toEqual([]);
    expect(again.service.parts.indexes.serving.model!.index.count).toBe(again.service.parts.catalog.size);
    expect(await answers(again)).toEqual(before);
  });

  it('detects a corrupted label map, rebuilds from the stored vectors with a notice, and answers with the right ids', async () => {
    // The HNSW's label map is what a reload trusts; the int8 scan has none (it reads the rows).
    const h = await fresh({ vectorStructure: 'hnsw' });
    await importFixtures(h);
    await h.drain();
    const before = await answers(h);
    const name = indexName(h.vault.db.name, 'lexical-v1-384');
    const saved = (await h.cache.manifests.get(name)) as VectorIndexManifest;
    const tampered = structuredClone(saved);
    tampered.recordIds.reverse();
    await h.cache.manifests.put(tampered);
    const again = await h.reopen();
    expect(again.service.parts.notices.list[0]).toMatchObject({ code: 'index/corrupt' });
    expect(again.service.parts.notices.list[0]!.message).toMatch(/rebuilt from \d+ stored vectors/u);
    expect(await answers(again)).toEqual(before);
    const third = await h.reopen();
    expect(third.service.parts.notices.list).toEqual([]);
  });

  it('rebuilds a damaged or unsaved keyword index from the chunks', async () => {
    const h = await fresh();
    await importFixtures(h);
    await h.drain();
    const before = await answers(h);
    const key = `bm25:${BM25_RECIPE}:${h.vault.db.name}`;
    const bytes = (await h.cache.blobs.get<Uint8Array>(key))!;
    await h.cache.blobs.put(key, bytes.slice(0, bytes.length - 9));
    const damaged = await h.reopen();
    expect(damaged.service.parts.bm25.info.loadedFrom).toBe('rebuilt');
    expect(damaged.service.parts.notices.list[0]!.message).toMatch(/keyword index was rebuilt/u);
    expect(await answers(damaged)).toEqual(before);
    await damaged.service.parts.bm25.edit(() => undefined);
    const dirty = await h.reopen();
    expect(dirty.service.parts.bm25.info.loadedFrom).toBe('rebuilt');
    expect(await answers(dirty)).toEqual(before);
  });

  it('a tab closed mid-embedding: the resumed job gives the same vectors as an uninterrupted one', async () => {
    const stalling = stallingHost(3);
    const a = await fresh({ host: stalling.host, batch: { lexical: 2, neural: 2 }, saveEveryMs: Infinity });
    await importFixtures(a);
    const running = a.drain();
    await waitUntil(async () => (await a.vault.db.vectors.count()) >= 6);
    // The closed tab never saves again: its in-memory index is gone.
    a.service.parts.deps.readOnly = true;
    const deadWorker = (await a.vault.db.jobs.where('status').equals('leased').first())!.leasedBy;
    // The next tab: its reaper sees the dead tab's Web Lock gone; its clock runs past the backoff.
    let t = Date.now();
    const b = await a.reopen({
      host: inProcessEmbedderHost(),
      runner: { holderAlive: (id) => id !== deadWorker, clock: () => (t += 1_000) },
    });
    expect(b.service.parts.indexes.serving.model!.index.count).toBe(6); // caught up from the vectors table
    expect(b.service.parts.catalog.size).toBeGreaterThan(6);
    expect(await b.drain()).toBeGreaterThanOrEqual(1);
    stalling.crash();
    await running.catch(() => undefined);

    const reference = await fresh({ batch: { lexical: 2, neural: 2 } });
    await importFixtures(reference);
    await reference.drain();
    const rows = async (h: Harness) => new Map((await h.vault.db.vectors.toArray()).map((r) => [r.recordId, Array.from(r.vector)]));
    const resumed = await rows(b);
    const uninterrupted = await rows(reference);
    expect(resumed.size).toBe(b.service.parts.catalog.size);
    expect([...resumed.keys()].sort()).toEqual([...uninterrupted.keys()].sort());
    for (const [id, vector] of uninterrupted) expect(resumed.get(id)).toEqual(vector);
    expect(await answers(b)).toEqual(await answers(reference));
    // The resumed job ran twice. A successor queued while it ran (jobs-repo: a running job no longer
    // absorbs a new one of its key) may be done too, so look for it among the done ones.
    const done = await b.vault.db.jobs
      .where('type')
      .equals('index.embed')
      .filter((j) => j.status === 'done')
      .toArray();
    expect(done.map((j) => j.attempts)).toContain(2);
  });

  it('index.rebuild re-derives everything: a hidden conversation leaves, merged vectors with clashing labels are relabelled', async () => {
    const h = await fresh();
    await importFixtures(h);
    await h.drain();
    const moss = (await h.vault.db.conversations.filter((c) => c.title.includes('moss')).first())!;
    await h.vault.db.conversations.update(moss.id, { state: 'staged' });
    // A vault file merged in another device's vectors: same labels, other records.
    const mossChunks = new Set((await h.vault.db.chunks.where('conversationId').equals(moss.id).primaryKeys()).map(String));
    const [x, y] = (await h.vault.db.vectors.toArray()).filter((r) => !mossChunks.has(r.recordId));
    await h.vault.db.vectors.put({ ...x!, label: y!.label });
    await h.vault.db.vectors.put({ ...x!, recordId: 'chunk-from-elsewhere#0' });
    await h.vault.jobs.enqueue(indexRebuildJob(), Date.now());
    await h.drain();
    const chunks = await h.vault.db.chunks.toArray();
    expect(chunks.some((c) => c.conversationId === moss.id)).toBe(false);
    expect(await h.vault.db.vectors.get(['chunk-from-elsewhere#0', 'lexical-v1-384'])).toBeUndefined();
    const labels = (await h.vault.db.vectors.toArray()).map((r) => r.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(h.service.parts.notices.list.some((n) => n.code === 'index/corrupt')).toBe(true);
    const [xHit] = await h.service.vectorSearch(x!.vector, 1);
    expect(xHit).toMatchObject({ id: x!.recordId });
    expect(h.service.parts.indexes.serving.model!.index.count).toBe(chunks.length);
    expect((await h.service.lexicalSearch('acidic soil moss', 5)).length).toBe(0);
  });
});
