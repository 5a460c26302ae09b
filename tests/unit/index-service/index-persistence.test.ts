import { describe, expect, it, vi } from 'vitest';
import { INDEX_JOBS, indexRebuildJob } from '../../../src/lib/core/api/index-api';
import type { JobRecord } from '../../../src/lib/core/records';
import type { JobContext } from '../../../src/lib/store/job-runner';
import type { VectorIndexManifest } from '../../../src/lib/store/vector-index-manifest';
import { BM25_RECIPE } from '../../../src/lib/services/index/bm25-text';
import type { EmbedderHost } from '../../../src/lib/services/index/embedder-host';
import { inProcessEmbedderHost } from '../../../src/lib/services/index/in-process-host';
import { indexName } from '../../../src/lib/services/index/model-index';
import { int8RowsKey } from '../../../src/lib/store/vector-index';
import { Int8Vectors } from '../../../src/lib/core/index/int8-vectors';
import { VectorsRepo } from '../../../src/lib/store/vectors-repo';
import { restoreVault } from '../../../src/lib/store/vaultfile-restore';
import { exportBytes, fileStream } from '../vaultfile-store/helpers';
import { loadState } from '../../../src/lib/services/index/load';
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

/** The lexical embedder with `before(texts)` awaited ahead of every batch it embeds. */
function lexicalHostWith(before: (texts: readonly string[]) => void | Promise<void>): EmbedderHost {
  return {
    async load(choice) {
      const base = await inProcessEmbedderHost().load(choice);
      return {
        ...base,
        embed: async (texts, options) => {
          await before(texts);
          return base.embed(texts, options);
        },
      };
    },
  };
}

/** The lexical embedder, stuck before batch `after + 1` until `crash()` (a tab closed mid-job). */
function stallingHost(after: number): { host: EmbedderHost; crash: () => void } {
  let batches = 0;
  let crash: () => void = () => undefined;
  const stalled = new Promise<never>((_, reject) => (crash = () => reject(new Error('the tab was closed'))));
  stalled.catch(() => undefined);
  return {
    crash: () => crash(),
    host: lexicalHostWith(async () => {
      if (++batches > after) await stalled;
    }),
  };
}

describe('index persistence', () => {
  it('a small vault is an int8 scan: its rows saved whole beside the manifest and read back on reload, same answers', async () => {
    const h = await fresh();
    await importFixtures(h);
    await h.drain();
    const model = h.service.parts.indexes.serving.model!;
    expect(model.index.structure).toBe('int8');
    const saved = (await h.cache.manifests.get(model.name))!;
    expect(saved).toMatchObject({ structure: 'int8', rowsToken: expect.any(String) });
    expect(saved.labels.length).toBe(model.index.count);
    expect(await h.cache.blobs.get(int8RowsKey(model.name))).toMatchObject({ token: saved.rowsToken });
    const before = await answers(h);
    const pages = vi.spyOn(VectorsRepo.prototype, 'pages');
    const counts = vi.spyOn(VectorsRepo.prototype, 'count');
    const again = await h.reopen();
    expect(pages).not.toHaveBeenCalled(); // no float vector was read
    // The table is counted once per open (a count walks every row in Chromium); the verification uses that count.
    expect(counts).toHaveBeenCalledTimes(1);
    pages.mockRestore();
    counts.mockRestore();
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

  it("fills the int8 scan's column copy after a reload in the background, a block a turn of the event loop; answers the same meanwhile", async () => {
    const h = await fresh();
    await importFixtures(h);
    await h.drain();
    const before = await answers(h);
    await h.service.scanColumnsSettled(); // the first service's own fill is not counted below
    // The fixtures fill one block: the copy is made to take three steps, the first two filling nothing.
    const real = Int8Vectors.prototype.buildColumnsStep;
    let calls = 0;
    const step = vi.spyOn(Int8Vectors.prototype, 'buildColumnsStep').mockImplementation(function (this: Int8Vectors, blocks?: number) {
      return ++calls <= 2 ? false : real.call(this, blocks);
    });
    try {
      const again = await h.reopen();
      const rows = again.service.parts.indexes.serving.model!.index.int8Rows!;
      expect(rows.size).toBe(again.service.parts.catalog.size);
      expect(calls).toBe(1); // the load took one step and left the rest to the event loop
      expect(rows.columnRows).toBe(0);
      expect(await answers(again)).toEqual(before); // scanned by row meanwhile
      await again.service.scanColumnsSettled();
      expect(calls).toBe(3);
      expect(rows.columnRows).toBe(rows.size);
      expect(rows.columnsPending).toBe(false);
      expect(await answers(again)).toEqual(before);
    } finally {
      step.mockRestore();
    }
  });

  it('int8 rows of another save, or a vault without saved rows, are filled from the vectors table; rows written after the save are caught up', async () => {
    const h = await fresh();
    await importFixtures(h);
    await h.drain();
    const before = await answers(h);
    const name = h.service.parts.indexes.serving.model!.name;
    const rows = (await h.cache.blobs.get<{ token: string }>(int8RowsKey(name)))!;
    await h.cache.blobs.put(int8RowsKey(name), { ...rows, token: 'another-save' });
    const pages = vi.spyOn(VectorsRepo.prototype, 'pages');
    const other = await h.reopen();
    expect(pages).toHaveBeenCalled();
    pages.mockRestore();
    expect(other.service.parts.notices.list).toEqual([]);
    expect(await answers(other)).toEqual(before);
    // Saved before the rows were (an older version's manifest): filled from the table, then saved whole.
    const manifest = (await h.cache.manifests.get(name))!;
    await h.cache.manifests.put({ ...manifest, labels: [], recordIds: [], hashes: [], rowsToken: undefined });
    await h.cache.blobs.delete(int8RowsKey(name));
    const older = await h.reopen();
    expect(await answers(older)).toEqual(before);
    expect((await h.cache.manifests.get(name))!.rowsToken).toEqual(expect.any(String));
    // A vector row written after the save (a crash before the next one): caught up on open.
    const saved = (await h.cache.manifests.get(name))!;
    const [row] = await h.vault.db.vectors.toArray();
    await h.service.parts.vectors.put([{ ...row!, label: saved.nextLabel + 5, vector: row!.vector.map((x, i) => (i === 0 ? -x : x)) }]);
    const behind = await h.reopen();
    expect(behind.service.parts.indexes.serving.model!.index.labelOf(row!.recordId)).toBe(saved.nextLabel + 5);
    expect(behind.service.parts.notices.list).toEqual([]);
    // A row removed after the save: the table holds fewer rows than the index, so every label is compared.
    const [, gone] = await h.vault.db.vectors.toArray();
    await h.vault.db.vectors.delete([gone!.recordId, gone!.modelId]);
    const labels = vi.spyOn(VectorsRepo.prototype, 'labels');
    const removed = await h.reopen();
    expect(labels).toHaveBeenCalled();
    labels.mockRestore();
    expect(removed.service.parts.indexes.serving.model!.index.labelOf(gone!.recordId)).toBeUndefined();
    // Nothing changed since the save: the labels are not read at all.
    const untouched = vi.spyOn(VectorsRepo.prototype, 'labels');
    await h.reopen();
    expect(untouched).not.toHaveBeenCalled();
    untouched.mockRestore();
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

describe('index.rebuild stopped between steps', () => {
  it('resumes after the last conversation it finished, in the same order, and indexes every one', async () => {
    const h = await fresh();
    // 60 one-exchange chats: steps of 25, 25 and 10.
    for (let n = 0; n < 60; n++)
      await h.importText(`chat-${n}.txt`, `User: Which trellis for the bean row ${n}?\n\nAssistant: Bean row ${n} climbs a cedar trellis.`);
    await h.drain();
    const ids = (await h.vault.db.conversations.where('state').equals('visible').primaryKeys()).map(String).sort();
    expect(ids).toHaveLength(60);
    await h.vault.db.chunks.clear();
    const rebuild = h.service.handlers()[INDEX_JOBS.rebuild]!;
    const run = async (payload: unknown, stopAfter: number | null) => {
      const stop = new AbortController();
      const seen: unknown[] = [];
      const ctx: JobContext = {
        job: { payload } as JobRecord,
        signal: stop.signal,
        progress: () => undefined,
        checkpoint: async (next) => {
          seen.push(next);
          if (seen.length === stopAfter) stop.abort();
        },
      };
      return { result: await rebuild(ctx), seen };
    };
    const first = await run(null, 1);
    expect(first.result).toBeNull();
    expect(first.seen).toEqual([{ phase: 'conversations', afterId: ids[24], done: 25 }]);
    const second = await run(first.seen[0], null);
    expect(second.result).toEqual({ conversations: 60 });
    expect(second.seen.slice(0, 3)).toEqual([
      { phase: 'conversations', afterId: ids[49], done: 50 },
      { phase: 'conversations', afterId: ids[59], done: 60 },
      { phase: 'notes', afterId: ids[59], done: 60 },
    ]);
    const chunked = new Set((await h.vault.db.chunks.toArray()).map((c) => c.conversationId));
    expect(ids.every((id) => chunked.has(id))).toBe(true);
  });
});

describe('the saved documents (the chunks part of the catalog and of the entity graph)', () => {
  const docsKey = (h: Harness) => `bm25-documents:${BM25_RECIPE}:${h.vault.db.name}`;
  // Compared as sets: the saved documents keep the live catalog's order, a table read goes by id.
  const entries = (h: Harness) => [...h.service.parts.catalog.ids()].sort().map((id) => h.service.parts.catalog.get(id));
  const graphOf = (h: Harness) => {
    const { entities, docs } = h.service.parts.graph.snapshot();
    const named = (ref: number) => `${ref < 0 ? 'opening ' : ''}${entities[ref < 0 ? ~ref : ref]!.join('/')}`;
    return {
      docs: docs
        .map(([id, conversation, refs]) => [id, conversation, refs.map(named).sort()] as const)
        .sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      entities: entities.map((e) => e.join('/')).sort(),
    };
  };

  it('a reload reads them back instead of the chunk rows: the same catalog, graph and answers as reading the tables', async () => {
    const h = await fresh();
    await importFixtures(h);
    await h.drain();
    const before = await answers(h);
    const again = await h.reopen();
    expect(again.service.parts.catalog.loadedFrom).toEqual({ from: 'saved' });
    expect(again.service.parts.bm25.info.loadedFrom).toBe('saved');
    expect(again.service.parts.notices.list).toEqual([]);
    expect(await answers(again)).toEqual(before);
    // The same state a load from the tables gives (the index.rebuild job reads them).
    const tables = await h.reopen();
    await tables.service.parts.lock.run(() => loadState(tables.service.parts, { fromTables: true }));
    expect(tables.service.parts.catalog.loadedFrom).toMatchObject({ from: 'tables' });
    expect(entries(again)).toEqual(entries(tables));
    expect(graphOf(again)).toEqual(graphOf(tables));
    expect(graphOf(again).docs.length).toBeGreaterThan(0);
  });

  it('are not used when another save wrote them, when the chunks table changed under them, or when damaged', async () => {
    const h = await fresh();
    await importFixtures(h);
    await h.drain();
    const before = await answers(h);
    const saved = (await h.cache.blobs.get<string>(docsKey(h)))!;
    // Another save's documents (the token differs): the chunk rows are read, and both saved again.
    await h.cache.blobs.put(docsKey(h), saved.replace(/"token":"[^"]+"/u, '"token":"another-save"'));
    const other = await h.reopen();
    expect(other.service.parts.catalog.loadedFrom).toEqual({
      from: 'tables',
      why: 'the saved documents belong to another save of the keyword index',
    });
    expect(await answers(other)).toEqual(before);
    expect((await h.reopen()).service.parts.catalog.loadedFrom).toEqual({ from: 'saved' });
    // A chunk row removed behind the index's back (as a restore rewrites the table).
    const [first] = await h.vault.db.chunks.toCollection().primaryKeys();
    await h.vault.db.chunks.delete(first!);
    const behind = await h.reopen();
    expect(behind.service.parts.catalog.loadedFrom).toMatchObject({
      from: 'tables',
      why: expect.stringMatching(/saved documents hold \d+ chunks, the vault \d+/u),
    });
    expect(behind.service.parts.catalog.get(String(first))).toBeUndefined();
    // Damaged: the graph names an entity that is not there.
    const rewritten = (await h.cache.blobs.get<string>(docsKey(h)))!;
    const parsed = JSON.parse(rewritten) as { graph: { docs: [string, string | null, number[]][] } };
    parsed.graph.docs[0]![2] = [1_000_000];
    await h.cache.blobs.put(docsKey(h), JSON.stringify(parsed));
    const damaged = await h.reopen();
    expect(damaged.service.parts.catalog.loadedFrom).toMatchObject({ from: 'tables', why: expect.stringMatching(/names entity 1000000/u) });
    expect(damaged.service.parts.graph.snapshot().docs.length).toBe(graphOf(behind).docs.length);
    await h.cache.blobs.put(docsKey(h), '{not json');
    expect((await h.reopen()).service.parts.catalog.loadedFrom).toEqual({ from: 'tables', why: 'the saved documents are damaged' });
  });

  it('follow the keyword index: a change marks both dirty, the next save writes both, and a follower never writes them', async () => {
    const h = await fresh();
    await importFixtures(h);
    await h.drain();
    await h.service.parts.bm25.edit(() => undefined);
    const dirty = await h.reopen();
    expect(dirty.service.parts.bm25.info.loadedFrom).toBe('rebuilt');
    expect(dirty.service.parts.catalog.loadedFrom).toMatchObject({ from: 'tables' });
    expect((await h.reopen()).service.parts.catalog.loadedFrom).toEqual({ from: 'saved' });
    await h.cache.blobs.delete(docsKey(h));
    const follower = await h.reopen({ readOnly: true });
    expect(follower.service.parts.catalog.loadedFrom).toEqual({ from: 'tables', why: 'no saved documents' });
    expect(await h.cache.blobs.get(docsKey(h))).toBeUndefined();
    // A leader saves them with the keyword index it found saved without them.
    await h.reopen();
    expect((await h.reopen()).service.parts.catalog.loadedFrom).toEqual({ from: 'saved' });
  });
});

describe('a vault file that carries vectors (issue 19, criterion 4)', () => {
  /** The lexical embedder, counting the documents it embeds. */
  function countingHost(): { host: EmbedderHost; embedded: () => number } {
    let n = 0;
    return { embedded: () => n, host: lexicalHostWith((texts) => void (n += texts.length)) };
  }

  it('restored into an empty vault, or over the same vault, re-embeds nothing and answers the same', async () => {
    const h = await fresh();
    await importFixtures(h);
    await h.drain();
    const before = await answers(h);
    const { bytes } = await exportBytes(h.vault);
    // Into another vault: its index starts empty, then the restore's index.rebuild job runs.
    const other = await fresh();
    await restoreVault(other.vault, fileStream(bytes));
    const counting = countingHost();
    const restored = await other.reopen({ host: counting.host });
    await restored.drain();
    expect(counting.embedded()).toBe(0);
    expect(restored.service.parts.indexes.serving.model!.index.count).toBe(restored.service.parts.catalog.size);
    expect(await answers(restored)).toEqual(before);
    // Over the same vault, whose saved documents and int8 rows describe what the restore replaced.
    await restoreVault(h.vault, fileStream(bytes));
    const again = countingHost();
    const over = await h.reopen({ host: again.host });
    await over.drain();
    expect(again.embedded()).toBe(0);
    expect(await answers(over)).toEqual(before);
    // The counter counts: a file without vectors is embedded again, every document.
    const bare = await exportBytes(h.vault, { vectors: false });
    const third = await fresh();
    await restoreVault(third.vault, fileStream(bare.bytes));
    const counted = countingHost();
    const embedded = await third.reopen({ host: counted.host });
    await embedded.drain();
    expect(counted.embedded()).toBe(embedded.service.parts.catalog.size);
    expect(await answers(embedded)).toEqual(before);
  });
});
