import { describe, expect, it } from 'vitest';
import { lexicalVector } from '../../../src/lib/models/lexical-embedder';
import { VectorIndex, type VectorEntry } from '../../../src/lib/store/vector-index';
import { memoryManifestStore } from '../../../src/lib/store/vector-index-manifest';
import { loadVerifiedIndex, type VectorTruth } from '../../../src/lib/store/vector-index-verify';
import { mulberry32 } from '../../factories/corpus';

const DIMS = 64;
const TOPICS = ['garden', 'budget', 'travel', 'music', 'cooking', 'running', 'reading', 'painting'];

function entries(n: number, offset = 0): VectorEntry[] {
  return Array.from({ length: n }, (_, i) => {
    const text = `${TOPICS[(i + offset) % TOPICS.length]} note number ${i + offset} about ${TOPICS[(i * 3) % TOPICS.length]}`;
    return {
      recordId: `rec-${i + offset}`,
      contentHash: `${(i + offset).toString(16).padStart(16, '0')}${'f'.repeat(48)}`,
      vector: lexicalVector(text, DIMS),
    };
  });
}

/** The vault's own record of the vectors, as the vectors table would give it. */
function truthOf(list: readonly VectorEntry[]): VectorTruth & { data: Map<string, VectorEntry> } {
  const data = new Map(list.map((e) => [e.recordId, e]));
  return {
    data,
    count: () => Promise.resolve(data.size),
    lookup: (ids) =>
      Promise.resolve(
        new Map(
          ids.filter((id) => data.has(id)).map((id) => [id, { contentHash: data.get(id)!.contentHash, vector: data.get(id)!.vector }]),
        ),
      ),
  };
}

let counter = 0;
const options = (manifests = memoryManifestStore()) => ({
  name: `test-${++counter}`,
  modelId: `lexical-v1-${DIMS}`,
  dims: DIMS,
  capacity: 16,
  manifests,
  now: () => 1,
});
const verify = { rng: mulberry32(7), sample: 64, now: () => 2 };

describe('VectorIndex', () => {
  it('made empty by deferred, creates its graph only on load (hnswlib-wasm loads with the first batch)', async () => {
    const index = VectorIndex.deferred(options());
    expect(index.loaded).toBe(false);
    expect(index.count).toBe(0);
    expect(index.slots).toBe(0);
    expect(index.search(entries(1)[0]!.vector, 5)).toEqual([]);
    expect(index.remove('rec-0')).toBe(false);
    expect(index.internals()).toEqual({ slots: 0, deletedLabels: [] });
    expect(() => index.add(entries(3))).toThrow(/not loaded yet/u);
    index.ensureCapacity(40);
    expect(index.capacity).toBeGreaterThanOrEqual(40);
    index.setEf(64);
    await index.load();
    expect(index.loaded).toBe(true);
    expect(index.capacity).toBeGreaterThanOrEqual(40);
    expect(index.params.ef).toBe(64);
    const list = entries(40);
    // The refused add took no label: the first one after load is 0.
    expect(index.add(list)).toEqual(list.map((_, i) => i));
    expect(index.search(list[7]!.vector, 1)[0]!.recordId).toBe('rec-7');
  });

  it('finds a stored vector as its own nearest neighbour', async () => {
    const index = await VectorIndex.create(options());
    const list = entries(50);
    index.add(list);
    const hits = index.search(list[7]!.vector, 3);
    expect(hits[0]!.recordId).toBe('rec-7');
    expect(hits[0]!.similarity).toBeCloseTo(1, 5);
  });

  it('grows past its capacity', async () => {
    const index = await VectorIndex.create(options());
    expect(index.capacity).toBe(16);
    index.add(entries(40));
    index.add(entries(30, 40));
    expect(index.count).toBe(70);
    expect(index.capacity).toBeGreaterThanOrEqual(70);
    expect(index.search(entries(1, 69)[0]!.vector, 1)[0]!.recordId).toBe('rec-69');
  });

  it('deletes and replaces: a removed or superseded vector is never returned', async () => {
    const index = await VectorIndex.create(options());
    const list = entries(20);
    index.add(list);
    expect(index.remove('rec-3')).toBe(true);
    expect(index.search(list[3]!.vector, 20).some((h) => h.recordId === 'rec-3')).toBe(false);
    const [replaced] = index.add([{ ...list[5]!, vector: list[9]!.vector }]);
    expect(index.count).toBe(19);
    expect(index.labelOf('rec-5')).toBe(replaced);
    expect(index.search(list[5]!.vector, 19).filter((h) => h.recordId === 'rec-5')).toHaveLength(1);
  });

  it('refuses a vector of another width', async () => {
    const index = await VectorIndex.create(options());
    expect(() => index.add([{ recordId: 'x', contentHash: 'a'.repeat(64), vector: new Float32Array(DIMS + 1) }])).toThrow(/dimension/u);
  });

  it('persists through IDBFS and reloads with the same answers and label map', async () => {
    const opts = options();
    const list = entries(300);
    const index = await VectorIndex.create(opts);
    index.add(list);
    index.remove('rec-10');
    await index.save();
    const loaded = await loadVerifiedIndex(opts, truthOf(list.filter((e) => e.recordId !== 'rec-10')), verify);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.error));
    const reloaded = loaded.value.index;
    expect(loaded.value.report).toMatchObject({ ok: true, count: 299, sampled: 64 });
    expect(reloaded.count).toBe(299);
    expect(reloaded.labelOf('rec-42')).toBe(index.labelOf('rec-42'));
    for (const probe of [list[0]!, list[99]!, list[250]!]) {
      expect(reloaded.search(probe.vector, 5)).toEqual(index.search(probe.vector, 5));
    }
    // The reloaded index keeps working: new labels do not collide with saved ones.
    const [label] = reloaded.add(entries(1, 1000));
    expect(label).toBe(300);
  });

  it('reports a missing index as not found', async () => {
    const result = await loadVerifiedIndex(options(), truthOf([]), verify);
    expect(result.ok ? null : result.error.code).toBe('store/not-found');
  });

  it('detects a corrupted label map (labels pointing at other records) and asks for a rebuild', async () => {
    const opts = options();
    const list = entries(100);
    const index = await VectorIndex.create(opts);
    index.add(list);
    const saved = await index.save();
    // Swap two record ids: every vector still exists, but two labels now name the wrong records.
    const tampered = structuredClone(saved);
    [tampered.recordIds[3], tampered.recordIds[4]] = [tampered.recordIds[4]!, tampered.recordIds[3]!];
    await opts.manifests.put(tampered);
    const result = await loadVerifiedIndex(opts, truthOf(list), { ...verify, sample: 100 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('index/corrupt');
    expect(JSON.stringify(result.error.detail)).toMatch(/rec-3|rec-4/u);
  });

  it('detects edited content and a count mismatch', async () => {
    const opts = options();
    const list = entries(40);
    const index = await VectorIndex.create(opts);
    index.add(list);
    await index.save();
    const truth = truthOf(list);
    truth.data.set('rec-2', { ...list[2]!, contentHash: 'e'.repeat(64) });
    const edited = await loadVerifiedIndex(opts, truth, { ...verify, sample: 40 });
    expect(edited.ok ? [] : (edited.error.detail as { problems: string[] }).problems).toEqual([
      'label 2 (rec-2) was built from other content',
    ]);
    const fewer = await loadVerifiedIndex(opts, truthOf(list.slice(1)), verify);
    expect(fewer.ok ? [] : (fewer.error.detail as { problems: string[] }).problems[0]).toBe('the vault holds 39 vectors, the index 40');
  });

  it('refuses to open an index saved for another model', async () => {
    const opts = options();
    const index = await VectorIndex.create(opts);
    index.add(entries(5));
    await index.save();
    const result = await loadVerifiedIndex({ ...opts, modelId: 'transformers:other:q8' }, truthOf(entries(5)), verify);
    expect(result.ok ? null : result.error.code).toBe('index/corrupt');
  });
});
