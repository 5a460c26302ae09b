/**
 * Spherical k-means over int8 rows, for the IVF index's lists (int8-ivf.ts): centroids are unit
 * vectors, a row belongs to the centroid with the largest dot product, and every assignment is a
 * scan of the centroids by the SIMD kernel. Trained on a seeded sample (time and randomness come
 * in), so the same vectors give the same lists everywhere.
 */
import { Int8Kernel, KERNEL_BLOCK } from './int8-kernel';
import { quantizeInto } from './int8-quantize';
import type { Int8Vectors } from './int8-vectors';

/** The list whose centroid has the largest dot product with `row` (int8 values). */
export function nearestList(centroids: Int8Kernel, factors: Float32Array, row: Int8Array): number {
  centroids.setQuery(row);
  let best = -Infinity;
  let bestList = 0;
  const lists = factors.length;
  for (let start = 0; start < lists; start += KERNEL_BLOCK) {
    const count = Math.min(KERNEL_BLOCK, lists - start);
    const dots = centroids.scan(start, count);
    for (let i = 0; i < count; i++) {
      const score = dots[i]! * factors[start + i]!;
      if (score > best) {
        best = score;
        bestList = start + i;
      }
    }
  }
  return bestList;
}

export interface TrainOptions {
  /** Rows sampled for training. */
  sample: number;
  iterations: number;
  rng: () => number;
}

/**
 * `lists` centroids of the store's live rows (the store must be compact: rows 0..size-1 live).
 * Returns them quantized in a kernel of their own, with their factors.
 */
export function trainCentroids(store: Int8Vectors, lists: number, options: TrainOptions): { centroids: Int8Kernel; factors: Float32Array } {
  const n = store.rowCount;
  if (n === 0 || n !== store.size) throw new RangeError('training needs a compact, non-empty store');
  const dims = store.dims;
  const sample = sampleRows(n, Math.max(lists, Math.min(n, options.sample)), options.rng);
  const centroids = new Int8Kernel(dims, lists);
  const factors = new Float32Array(lists);
  const vectors = new Float32Array(lists * dims);
  const row = new Float32Array(dims);
  // Distinct sample rows as the first centroids (the sample is already shuffled).
  for (let c = 0; c < lists; c++) vectors.set(store.vectorAt(sample[c % sample.length]!, row), c * dims);
  const sums = new Float64Array(lists * dims);
  const counts = new Int32Array(lists);
  const centroid = new Float32Array(dims);
  for (let iteration = 0; iteration <= options.iterations; iteration++) {
    for (let c = 0; c < lists; c++) factors[c] = quantizeInto(vectors.subarray(c * dims, c * dims + dims), centroids.row(c));
    if (iteration === options.iterations) break;
    sums.fill(0);
    counts.fill(0);
    for (const r of sample) {
      const c = nearestList(centroids, factors, store.kernel.row(r));
      store.vectorAt(r, row);
      const base = c * dims;
      for (let d = 0; d < dims; d++) sums[base + d]! += row[d]!;
      counts[c]!++;
    }
    for (let c = 0; c < lists; c++) {
      if (counts[c] === 0) {
        // An empty list takes a random sample row as its new centroid.
        vectors.set(store.vectorAt(sample[Math.floor(options.rng() * sample.length)]!, row), c * dims);
        continue;
      }
      let norm = 0;
      for (let d = 0; d < dims; d++) {
        centroid[d] = sums[c * dims + d]!;
        norm += centroid[d]! * centroid[d]!;
      }
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dims; d++) vectors[c * dims + d] = centroid[d]! / norm;
    }
  }
  return { centroids, factors };
}

/** `count` distinct row numbers below `n`, in seeded random order (partial Fisher-Yates). */
function sampleRows(n: number, count: number, rng: () => number): Int32Array {
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  const take = Math.min(n, count);
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(rng() * (n - i));
    const t = rows[i]!;
    rows[i] = rows[j]!;
    rows[j] = t;
  }
  return rows.slice(0, take);
}
