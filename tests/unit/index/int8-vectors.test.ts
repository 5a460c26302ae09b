import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { assembleKernel } from '../../../scripts/int8-kernel-assemble';
import { FlatVectors } from '../../../src/lib/core/index/exact';
import { Int8Ivf } from '../../../src/lib/core/index/int8-ivf';
import { INT8_KERNEL_WASM_BASE64 } from '../../../src/lib/core/index/int8-kernel-bytes';
import { Int8Kernel, KERNEL_BLOCK } from '../../../src/lib/core/index/int8-kernel';
import { asymmetricDot, quantize } from '../../../src/lib/core/index/int8-quantize';
import { Int8Columns } from '../../../src/lib/core/index/int8-columns';
import { Int8Vectors } from '../../../src/lib/core/index/int8-vectors';
import { dot, dotAt, nonZeroPositions } from '../../../src/lib/core/index/vector-math';
import { seededRng } from '../../factories/rng';

const DIMS = 64;

function unit(rng: () => number, dims = DIMS): Float32Array {
  const v = Float32Array.from({ length: dims }, () => rng() * 2 - 1);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** Vectors around `centres` directions, so neighbours exist (like embeddings, unlike uniform noise). */
function clustered(rng: () => number, n: number, centres: number, dims = DIMS): Float32Array[] {
  const hubs = Array.from({ length: centres }, () => unit(rng, dims));
  return Array.from({ length: n }, () => {
    const hub = hubs[Math.floor(rng() * centres)]!;
    const noise = unit(rng, dims);
    const v = hub.map((x, i) => x + 0.6 * noise[i]!);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

function recallAt10(got: number[][], truth: number[][]): number {
  let hits = 0;
  got.forEach((g, i) => (hits += g.filter((x) => truth[i]!.includes(x)).length));
  return hits / (10 * got.length);
}

describe('int8 kernel', () => {
  it('is the committed binary of int8-kernel.wat (assembled again here)', async () => {
    const source = readFileSync(new URL('../../../src/lib/core/index/int8-kernel.wat', import.meta.url), 'utf8');
    const bytes = await assembleKernel(source);
    expect(Buffer.from(bytes).toString('base64')).toBe(INT8_KERNEL_WASM_BASE64);
  });

  it('runs SIMD here, and gives exactly the JavaScript kernel’s dot products, also past a block and by id', () => {
    const rng = seededRng(1);
    const rows = KERNEL_BLOCK + 300;
    const simd = new Int8Kernel(DIMS, 16);
    const js = new Int8Kernel(DIMS, 16, { simd: false });
    expect(simd.simd).toBe(true);
    expect(js.simd).toBe(false);
    const values = Int8Array.from({ length: rows * DIMS }, () => Math.floor(rng() * 256) - 128);
    const query = Int8Array.from({ length: DIMS }, () => Math.floor(rng() * 256) - 128);
    for (const kernel of [simd, js]) {
      kernel.ensureCapacity(rows);
      kernel.rows().set(values);
      kernel.setQuery(query);
    }
    const expected = (row: number) => {
      let sum = 0;
      for (let d = 0; d < DIMS; d++) sum += query[d]! * values[row * DIMS + d]!;
      return sum;
    };
    for (const start of [0, KERNEL_BLOCK]) {
      const count = Math.min(KERNEL_BLOCK, rows - start);
      const a = Array.from(simd.scan(start, count));
      expect(a).toEqual(Array.from(js.scan(start, count)));
      expect(a[count - 1]).toBe(expected(start + count - 1));
    }
    const ids = [rows - 1, 0, 4242, 7];
    for (const kernel of [simd, js]) kernel.ids().set(ids);
    expect(Array.from(simd.scanIds(ids.length))).toEqual(ids.map(expected));
    expect(Array.from(js.scanIds(ids.length))).toEqual(ids.map(expected));
    // The extremes: -128 x -128 summed over every dimension stays exact.
    simd.rows().fill(-128, 0, DIMS);
    simd.setQuery(new Int8Array(DIMS).fill(-128));
    expect(simd.scan(0, 1)[0]).toBe(16_384 * DIMS);
  });

  it('refuses a width the kernel cannot scan', () => {
    expect(() => new Int8Kernel(100)).toThrow(/multiple of 16/);
  });
});

describe('int8 quantization', () => {
  it('keeps the dot product within a percent and maps a zero vector to factor 0', () => {
    const rng = seededRng(2);
    const a = unit(rng);
    const b = unit(rng);
    const { values, factor } = quantize(b);
    const exact = a.reduce((s, x, i) => s + x * b[i]!, 0);
    expect(Math.abs(asymmetricDot(a, values, factor) - exact)).toBeLessThan(0.01);
    expect(Math.max(...Array.from(values, Math.abs))).toBe(127);
    expect(quantize(new Float32Array(DIMS)).factor).toBe(0);
  });
});

describe('dot products over a sparse query’s non-zero positions', () => {
  it('give exactly the full sums (float and int8 rows), and a dense query gets no positions', () => {
    const rng = seededRng(71);
    for (let t = 0; t < 200; t++) {
      const query = sparseUnit(rng, 1 + (t % 16));
      const at = nonZeroPositions(query);
      expect(at).not.toBeNull();
      expect(Array.from(at!)).toEqual(Array.from(query.keys()).filter((i) => query[i] !== 0));
      const other = unit(rng);
      expect(Object.is(dotAt(query, other, at!), dot(query, other))).toBe(true);
      const { values, factor } = quantize(unit(rng));
      expect(Object.is(asymmetricDot(query, values, factor, at), asymmetricDot(query, values, factor))).toBe(true);
    }
    expect(nonZeroPositions(unit(rng))).toBeNull();
    expect(nonZeroPositions(sparseUnit(rng, DIMS))).toBeNull();
  });
});

describe('Int8Vectors', () => {
  const rng = seededRng(3);
  const vectors = clustered(rng, 3000, 40);
  const queries = clustered(rng, 50, 40);
  const flat = new FlatVectors(DIMS, vectors.length);
  vectors.forEach((v, i) => flat.set(i, v));
  const truth = queries.map((q) => flat.search(q, 10).map((h) => h.label));

  it('finds what exact float search finds (recall@10 >= 0.97), with similarities close to it', () => {
    const store = new Int8Vectors(DIMS, 16);
    vectors.forEach((v, i) => store.set(i, v));
    expect(store.size).toBe(vectors.length);
    const got = queries.map((q) => store.search(q, 10));
    expect(
      recallAt10(
        got.map((hits) => hits.map((h) => h.label)),
        truth,
      ),
    ).toBeGreaterThanOrEqual(0.97);
    const top = flat.search(queries[0]!, 1)[0]!;
    expect(got[0]![0]!.similarity).toBeCloseTo(top.similarity, 1);
    expect(got[0]!.map((h) => h.similarity)).toEqual([...got[0]!.map((h) => h.similarity)].sort((a, b) => b - a));
  });

  it('searches several queries in one pass with the results of one search each, dead rows skipped', () => {
    const store = new Int8Vectors(DIMS, 16);
    vectors.forEach((v, i) => store.set(i, v));
    store.delete(7);
    store.delete(2500);
    const batch = queries.slice(0, 6);
    expect(store.searchMany(batch, 10)).toEqual(batch.map((q) => store.search(q, 10)));
    expect(store.searchMany([queries[0]!], 5)).toEqual([store.search(queries[0]!, 5)]);
    expect(store.searchMany([], 5)).toEqual([]);
    for (const hits of store.searchMany(batch, 10)) expect(hits.map((h) => h.label)).not.toContain(7);
  });

  it('keeps the rows a scan of every score keeps, though it passes over rows by their integer dot alone', () => {
    // Factors far apart (a row with one non-zero value has a large one, a dense row a small one), so
    // the bound through the largest factor is loose and rows near it must still be scored exactly.
    const rng = seededRng(61);
    const index = new Int8Vectors(DIMS, 16);
    const rowsOnly = new Int8Vectors(DIMS, 16, { columns: false });
    const vectors = Array.from({ length: 1500 }, (_, i) => sparseUnit(rng, i % 7 === 0 ? 1 : 4 + (i % 40)));
    vectors.forEach((v, i) => [index, rowsOnly].forEach((x) => x.set(i, v)));
    const stored = rowsOnly.exportRows();
    const reference = (query: Float32Array, k: number) => {
      const q = quantize(query).values;
      const scored = Array.from(stored.labels, (label, row) => {
        let dot = 0;
        for (let d = 0; d < DIMS; d++) dot += q[d]! * stored.values[row * DIMS + d]!;
        return { row, label, score: dot * stored.factors[row]! };
      });
      scored.sort((a, b) => b.score - a.score || a.row - b.row);
      return scored
        .slice(0, Math.max(32, 4 * k))
        .map(({ row, label }) => ({
          label,
          row,
          similarity: asymmetricDot(query, stored.values.subarray(row * DIMS, (row + 1) * DIMS), stored.factors[row]!),
        }))
        .sort((a, b) => b.similarity - a.similarity || a.row - b.row)
        .slice(0, k)
        .map(({ label, similarity }) => ({ label, similarity }));
    };
    const queries = [...Array.from({ length: 10 }, () => sparseUnit(rng, 5)), ...Array.from({ length: 5 }, () => unit(rng))];
    for (const q of queries)
      for (const k of [1, 10, 40]) {
        expect(index.search(q, k)).toEqual(reference(q, k));
        expect(rowsOnly.search(q, k)).toEqual(reference(q, k));
      }
  });

  it('never returns a deleted vector, replaces on set, and compacts without changing results', () => {
    const store = new Int8Vectors(DIMS, 16);
    vectors.forEach((v, i) => store.set(i, v));
    const q = queries[1]!;
    const before = store.search(q, 10).map((h) => h.label);
    for (const label of before.slice(0, 3)) expect(store.delete(label)).toBe(true);
    expect(store.delete(before[0]!)).toBe(false);
    const after = store.search(q, 10).map((h) => h.label);
    expect(after).not.toContain(before[0]);
    expect(after.slice(0, 7)).toEqual(before.slice(3, 10));
    // Deleting a third of everything triggers compaction: rows shrink, answers stay.
    for (let label = 0; label < 1200; label++) store.delete(label);
    expect(store.rowCount).toBeLessThan(vectors.length); // compacted on the way
    expect((store.rowCount - store.size) * 4).toBeLessThanOrEqual(store.rowCount);
    const flatAfter = new FlatVectors(DIMS, vectors.length);
    vectors.forEach((v, i) => i >= 1200 && !before.slice(0, 3).includes(i) && flatAfter.set(i, v));
    const exactLabels = flatAfter.search(q, 10).map((h) => h.label);
    expect(recallAt10([store.search(q, 10).map((h) => h.label)], [exactLabels])).toBeGreaterThanOrEqual(0.9);
    store.set(5000, queries[2]!);
    expect(store.search(queries[2]!, 1)[0]!.label).toBe(5000);
    store.set(5000, queries[3]!);
    expect(store.size).toBe(flatAfter.size + 1);
    expect(store.search(queries[3]!, 1)[0]!.label).toBe(5000);
  });

  it('reorders rows in place: labels follow their vectors, unlisted rows are dropped', () => {
    const store = new Int8Vectors(DIMS, 4);
    vectors.slice(0, 6).forEach((v, i) => store.set(100 + i, v));
    const before = [0, 1, 2, 3, 4, 5].map((row) => Array.from(store.kernel.row(row)));
    store.delete(103);
    store.reorder(Int32Array.from([5, 2, 0, 4, 1]));
    expect([0, 1, 2, 3, 4].map((row) => store.labelAt(row))).toEqual([105, 102, 100, 104, 101]);
    expect(Array.from(store.kernel.row(0))).toEqual(before[5]);
    expect(Array.from(store.kernel.row(3))).toEqual(before[4]);
    expect(store.rowCount).toBe(5);
    expect(store.has(103)).toBe(false);
    expect(() => store.reorder(Int32Array.from([0, 0]))).toThrow(RangeError);
  });
});

describe('Int8Ivf', () => {
  it('scans exactly below its threshold, then probes lists; recall rises with probes and follows adds and deletes', () => {
    const rng = seededRng(4);
    const vectors = clustered(rng, 6000, 60);
    const queries = clustered(rng, 40, 60);
    const ivf = new Int8Ivf(DIMS, { rng: seededRng(5), params: { exactBelow: 4000, probes: 2, listsPerSqrt: 1 } });
    vectors.slice(0, 3999).forEach((v, i) => ivf.set(i, v));
    expect(ivf.listCount).toBe(0);
    vectors.slice(3999).forEach((v, i) => ivf.set(3999 + i, v));
    expect(ivf.listCount).toBe(Math.round(Math.sqrt(4000)));
    const flat = new FlatVectors(DIMS, vectors.length);
    vectors.forEach((v, i) => flat.set(i, v));
    const truth = queries.map((q) => flat.search(q, 10).map((h) => h.label));
    const recallAt = (probes: number) => {
      ivf.probes = probes;
      return recallAt10(
        queries.map((q) => ivf.search(q, 10).map((h) => h.label)),
        truth,
      );
    };
    const few = recallAt(1);
    const many = recallAt(ivf.listCount);
    expect(many).toBeGreaterThanOrEqual(0.97); // every list probed: exact up to quantization
    expect(few).toBeLessThan(many);
    // Deleted vectors never come back; a replaced one is found where it now is.
    for (const label of truth[0]!.slice(0, 5)) ivf.delete(label);
    expect(ivf.search(queries[0]!, 10).map((h) => h.label)).not.toContain(truth[0]![0]);
    ivf.set(1, queries[5]!);
    expect(ivf.search(queries[5]!, 1)[0]!.label).toBe(1);
    expect(ivf.size).toBe(vectors.length - 5);
  });
});

describe('int8 rows saved and read back (exportRows / importRows)', () => {
  it('reads back the live rows: the same answers, deleted rows left out, and adds continue after them', () => {
    const rng = seededRng(41);
    const vectors = clustered(rng, 600, 12);
    const queries = clustered(rng, 20, 12);
    const a = new Int8Vectors(DIMS, 16, { autoCompact: false });
    vectors.forEach((v, i) => a.set(1000 + i, v));
    for (let i = 0; i < 600; i += 7) a.delete(1000 + i);
    const saved = a.exportRows();
    expect(saved.labels.length).toBe(a.size);
    const b = new Int8Vectors(DIMS, 16);
    b.importRows(structuredClone(saved));
    expect(b.size).toBe(a.size);
    for (const q of queries) expect(b.search(q, 10)).toEqual(a.search(q, 10));
    expect(b.has(1000)).toBe(false);
    expect(Array.from(b.vectorAt(b.rowOfLabel(1001)!))).toEqual(Array.from(a.vectorAt(a.rowOfLabel(1001)!)));
    // Writes after the read-back land in new rows, and a replaced label keeps its row.
    b.set(5000, vectors[0]!);
    b.set(1001, vectors[3]!);
    expect(b.search(vectors[0]!, 1)[0]!.label).toBe(5000); // label 1000 (the same vector) was deleted
    expect(b.search(vectors[3]!, 2).map((h) => h.label)).toContain(1001);
    expect(b.size).toBe(a.size + 1);
  });

  it('refuses rows of other dims or a repeated label, and is left empty', () => {
    const rng = seededRng(42);
    const a = new Int8Vectors(DIMS, 16);
    a.set(1, unit(rng));
    a.set(2, unit(rng));
    const saved = a.exportRows();
    const other = new Int8Vectors(DIMS * 2, 16);
    expect(() => other.importRows(saved)).toThrow(/do not fit/u);
    const b = new Int8Vectors(DIMS, 16);
    b.set(9, unit(rng));
    expect(() => b.importRows({ ...saved, labels: Int32Array.from([1, 1]) })).toThrow(/repeat a label/u);
    expect(b.size).toBe(0);
    expect(b.search(unit(rng), 5)).toEqual([]);
  });
});

/** Unit vectors with `nonZero` random dimensions set, as the lexical embedder's hashed features are. */
function sparseUnit(rng: () => number, nonZero: number, dims = DIMS): Float32Array {
  const v = new Float32Array(dims);
  for (let n = 0; n < nonZero; n++) v[Math.floor(rng() * dims)] = rng() * 2 - 1;
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

describe('int8 column scan (sparse queries)', () => {
  it("gives exactly the row kernel's dot products, past a block and in a part-filled last one", () => {
    const rng = seededRng(51);
    const rows = KERNEL_BLOCK + 300;
    const kernel = new Int8Kernel(DIMS, rows);
    const columns = Int8Columns.create(DIMS)!;
    expect(columns).not.toBeNull();
    const values = Int8Array.from({ length: rows * DIMS }, () => (rng() < 0.3 ? Math.floor(rng() * 256) - 128 : 0));
    kernel.rows().set(values);
    columns.fill(values, rows - 1);
    columns.setRow(rows - 1, values.subarray((rows - 1) * DIMS)); // the last row written alone
    const query = new Int8Array(DIMS);
    for (const d of [0, 5, 17, 40, 63]) query[d] = Math.floor(rng() * 255) - 127;
    query[9] = -128;
    kernel.setQuery(query);
    expect(columns.setQuery(query)).toBe(6);
    for (const start of [0, KERNEL_BLOCK]) {
      const count = Math.min(KERNEL_BLOCK, rows - start);
      expect(Array.from(columns.scan(start, count))).toEqual(Array.from(kernel.scan(start, count)));
    }
    expect(() => columns.scan(100, 10)).toThrow(RangeError);
    expect(() => columns.scan(2 * KERNEL_BLOCK, 1)).toThrow(RangeError);
  });

  it('answers sparse queries as the row scan does, through adds, replacements, deletes, compaction and a read-back', () => {
    const rng = seededRng(52);
    const withColumns = new Int8Vectors(DIMS, 16);
    const rowsOnly = new Int8Vectors(DIMS, 16, { columns: false });
    const both = (f: (v: Int8Vectors) => void) => [withColumns, rowsOnly].forEach(f);
    const vectors = Array.from({ length: 900 }, () => sparseUnit(rng, 12));
    vectors.slice(0, 600).forEach((v, i) => both((x) => x.set(i, v)));
    const sparseQueries = Array.from({ length: 12 }, () => sparseUnit(rng, 6));
    const denseQuery = unit(rng);
    const check = () => {
      for (const q of sparseQueries) expect(withColumns.search(q, 10)).toEqual(rowsOnly.search(q, 10));
      const mixed = [sparseQueries[0]!, denseQuery, sparseQueries[1]!];
      expect(withColumns.searchMany(mixed, 10)).toEqual(rowsOnly.searchMany(mixed, 10));
    };
    const before = withColumns.bytes;
    check();
    // A sparse query fills no block itself: it scans by row and leaves the copy due.
    expect(withColumns.bytes).toBe(before);
    expect(withColumns.columnsPending).toBe(true);
    expect(rowsOnly.columnsPending).toBe(false);
    expect(withColumns.buildColumnsStep()).toBe(true); // 600 rows: one block
    expect(withColumns.columnsPending).toBe(false);
    expect(withColumns.bytes).toBeGreaterThan(before);
    check();
    expect(rowsOnly.search(sparseQueries[0]!, 1)[0]!.label).toBe(withColumns.search(sparseQueries[0]!, 1)[0]!.label);
    // Rows added and replaced after the copy exists are found through it.
    vectors.slice(600).forEach((v, i) => both((x) => x.set(600 + i, v)));
    both((x) => x.set(3, sparseQueries[2]!));
    expect(withColumns.search(sparseQueries[2]!, 1)[0]!.label).toBe(3);
    check();
    // Enough deletes to compact (rows move), then the same answers.
    for (let i = 0; i < 900; i += 3) both((x) => x.delete(i));
    expect(withColumns.rowCount).toBeLessThan(900); // compacted on the way
    // The rows moved: the copy is due again, and the rows answer until it is filled.
    expect(withColumns.columnsPending).toBe(true);
    check();
    expect(withColumns.buildColumnsStep()).toBe(true);
    check();
    const readBack = new Int8Vectors(DIMS, 16);
    readBack.importRows(withColumns.exportRows());
    const plain = new Int8Vectors(DIMS, 16, { columns: false });
    plain.importRows(withColumns.exportRows());
    expect(readBack.bytes).toBe(plain.bytes);
    // Sparse rows get their copy when asked ahead of the first query (the index worker does, after a load).
    expect(readBack.prepareColumns()).toBe(true);
    const built = readBack.bytes;
    expect(built).toBeGreaterThan(plain.bytes);
    for (const q of sparseQueries) expect(readBack.search(q, 10)).toEqual(rowsOnly.search(q, 10));
    expect(readBack.bytes).toBe(built);
    expect(plain.prepareColumns()).toBe(false);
  });

  it('answers through a copy filled a block at a time as the row scan does, rows added and replaced on the way', () => {
    const rng = seededRng(55);
    const partial = new Int8Vectors(DIMS, 16);
    const rowsOnly = new Int8Vectors(DIMS, 16, { columns: false });
    const both = (f: (v: Int8Vectors) => void) => [partial, rowsOnly].forEach(f);
    const count = 2 * KERNEL_BLOCK;
    for (let i = 0; i < count; i++) {
      const v = sparseUnit(rng, 10);
      both((x) => x.set(i, v));
    }
    const queries = Array.from({ length: 8 }, () => sparseUnit(rng, 6));
    const mixed = [queries[0]!, unit(rng), queries[1]!];
    const check = () => {
      for (const q of queries) expect(partial.search(q, 10)).toEqual(rowsOnly.search(q, 10));
      expect(partial.searchMany(mixed, 10)).toEqual(rowsOnly.searchMany(mixed, 10));
    };
    expect(partial.columnsWanted()).toBe(true); // sparse rows, before any query
    check();
    expect(partial.buildColumnsStep()).toBe(false); // the first of two blocks
    check();
    // A query whose best row is in the filled block, and one whose best row is past it.
    both((x) => x.set(5, queries[2]!));
    both((x) => x.set(KERNEL_BLOCK + 5, queries[3]!));
    expect(partial.search(queries[2]!, 1)[0]!.label).toBe(5);
    expect(partial.search(queries[3]!, 1)[0]!.label).toBe(KERNEL_BLOCK + 5);
    check();
    expect(partial.buildColumnsStep()).toBe(true);
    expect(partial.columnsPending).toBe(false);
    check();
    // The copy holds every row: a new row opens its next block, and stays complete.
    both((x) => x.set(count, queries[4]!));
    expect(partial.columnsPending).toBe(false);
    expect(partial.search(queries[4]!, 1)[0]!.label).toBe(count);
    check();
  });

  it('scans the rows for good when memory for the column copy runs out', () => {
    const rng = seededRng(54);
    const index = new Int8Vectors(DIMS, 16);
    const plain = new Int8Vectors(DIMS, 16, { columns: false });
    const vectors = Array.from({ length: 200 }, () => sparseUnit(rng, 12));
    vectors.forEach((v, i) => [index, plain].forEach((x) => x.set(i, v)));
    const full = vi.spyOn(Int8Columns.prototype, 'fill').mockImplementation(() => {
      throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
    });
    try {
      const q = sparseUnit(rng, 6);
      expect(index.search(q, 10)).toEqual(plain.search(q, 10));
      expect(index.prepareColumns()).toBe(false);
      expect(index.bytes).toBe(plain.bytes);
      expect(full).toHaveBeenCalledTimes(1); // not tried again
    } finally {
      full.mockRestore();
    }
  });

  it('keeps no column copy for dense rows, even when asked ahead, and scans a dense query by row', () => {
    const rng = seededRng(53);
    const dense = new Int8Vectors(DIMS, 16);
    clustered(rng, 300, 6).forEach((v, i) => dense.set(i, v));
    const readBack = new Int8Vectors(DIMS, 16);
    readBack.importRows(dense.exportRows());
    const plain = new Int8Vectors(DIMS, 16, { columns: false });
    plain.importRows(dense.exportRows());
    expect(readBack.prepareColumns()).toBe(false);
    expect(readBack.bytes).toBe(plain.bytes);
    const q = unit(rng);
    expect(readBack.search(q, 10)).toEqual(plain.search(q, 10));
    expect(readBack.bytes).toBe(plain.bytes);
  });
});
