import { describe, expect, it } from 'vitest';
import { FlatVectors } from '../../../src/lib/core/index/exact';
import { lexicalVector } from '../../../src/lib/models/lexical-embedder';
import { INT8_SCAN_UP_TO, structureFor } from '../../../src/lib/services/index/model-index';
import { VectorIndex } from '../../../src/lib/store/vector-index';
import { memoryManifestStore } from '../../../src/lib/store/vector-index-manifest';
import { verifyVectorIndex } from '../../../src/lib/store/vector-index-verify';
import { mulberry32 } from '../../factories/corpus';

const WORDS = 'garden maple moss stone pond budget travel music cooking running reading painting tea lantern river'.split(' ');

function texts(n: number, seed: number): string[] {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, () => Array.from({ length: 8 }, () => WORDS[Math.floor(rng() * WORDS.length)]).join(' '));
}

const entry = (t: string, i: number) => ({
  recordId: `r${i}`,
  contentHash: `${i.toString(16).padStart(16, '0')}${'0'.repeat(48)}`,
  vector: lexicalVector(t),
});

describe('the vector structure', () => {
  it('is an int8 scan up to INT8_SCAN_UP_TO vectors, a graph above, and a graph whenever the kernel cannot scan the dimensions', () => {
    expect(structureFor(384, 0)).toBe('int8');
    expect(structureFor(384, INT8_SCAN_UP_TO)).toBe('int8');
    expect(structureFor(384, INT8_SCAN_UP_TO + 1)).toBe('hnsw');
    expect(structureFor(40, 10)).toBe('hnsw'); // the kernel scans multiples of 16 dimensions
    expect(structureFor(384, 10, 'hnsw')).toBe('hnsw');
    expect(structureFor(384, INT8_SCAN_UP_TO + 1, 'int8')).toBe('int8');
    expect(structureFor(40, 10, 'int8')).toBe('hnsw');
  });

  it('an int8 index finds what exact float search finds, deletes, and verifies against the vault like a graph', async () => {
    const list = texts(1200, 5).map(entry);
    const manifests = memoryManifestStore();
    const index = await VectorIndex.create({ name: 'int8', modelId: 'lexical-v1-384', dims: 384, structure: 'int8', manifests });
    expect(index.structure).toBe('int8');
    const labels = index.add(list);
    const exact = new FlatVectors(384);
    list.forEach((e, i) => exact.set(labels[i]!, e.vector));
    let found = 0;
    const queries = texts(40, 9).map((t) => lexicalVector(t));
    for (const q of queries) {
      const truth = new Set(exact.search(q, 10).map((h) => h.label));
      found += index.search(q, 10).filter((h) => truth.has(h.label)).length;
    }
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
    // A removed record is never found again, and the counts stay consistent.
    const top = index.search(list[3]!.vector, 1)[0]!;
    expect(top.recordId).toBe('r3');
    expect(index.remove('r3')).toBe(true);
    expect(index.search(list[3]!.vector, 5).map((h) => h.recordId)).not.toContain('r3');
    expect(index.internals()).toEqual({ slots: list.length - 1, deletedLabels: [] });
    const rest = new Map(list.filter((e) => e.recordId !== 'r3').map((e) => [e.recordId, e]));
    const truth = {
      count: () => Promise.resolve(rest.size),
      lookup: (ids: readonly string[]) =>
        Promise.resolve(
          new Map(
            ids.filter((id) => rest.has(id)).map((id) => [id, { contentHash: rest.get(id)!.contentHash, vector: rest.get(id)!.vector }]),
          ),
        ),
    };
    // The dequantized vectors stay within the verifier's cosine 0.999 of the stored ones.
    expect(await verifyVectorIndex(index, truth, { rng: mulberry32(3), sample: 200 })).toMatchObject({ ok: true, problems: [] });
  });

  it('saves an int8 index as its manifest alone; it opens empty, asking for its rows, and is forgotten without a file', async () => {
    const manifests = memoryManifestStore();
    const options = { name: 'int8-saved', modelId: 'lexical-v1-384', dims: 384, structure: 'int8' as const, manifests };
    const index = await VectorIndex.create(options);
    index.add(texts(50, 2).map(entry));
    const manifest = await index.save();
    expect(manifest).toMatchObject({ structure: 'int8', labels: [], recordIds: [], hashes: [], nextLabel: 50 });
    const opened = (await VectorIndex.open(options))!;
    expect(opened).toMatchObject({ structure: 'int8', needsRows: true, count: 0, labelCursor: 50 });
    await VectorIndex.discard(options.name, 384, manifests);
    expect(await manifests.get(options.name)).toBeUndefined();
  });
});
