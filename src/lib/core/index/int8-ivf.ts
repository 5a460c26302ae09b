/**
 * An inverted-file index (IVF) over int8 vectors, for vaults where an exact scan is too slow: the
 * vectors are clustered by spherical k-means (int8-kmeans.ts) into `lists` lists, each list's rows
 * are stored next to each other, and a query scans only the `probes` lists whose centroids are
 * nearest, plus the rows added since the lists were last laid out (the tail, scanned whole).
 * Below `exactBelow` live vectors it is an exact scan (Int8Vectors), which is then faster and exact.
 *
 * Maintenance is part of `set` and `delete`, so it is paid by the indexing job, never by a query:
 * the lists are laid out again (rows sorted by list, dead rows dropped; a memory move, no
 * training) when the tail or the dead rows pass a share of the rows, and the centroids are trained
 * again when the vault has doubled since they were.
 *
 * Settings: tests/bench/index-vectors.bench.ts measures recall@10 and latency against exact search
 * for lists and probes at 100k and 300k lexical vectors (the curves are in docs/INDEX.md).
 */
import { KERNEL_BLOCK, type Int8Kernel } from './int8-kernel';
import { nearestList, trainCentroids } from './int8-kmeans';
import { Int8Vectors, type VectorHit } from './int8-vectors';
import { quantizeInto } from './int8-quantize';
import { TopK } from './top-k';

export interface IvfParams {
  /** Live vectors from which the lists are used (below: exact scan). */
  exactBelow: number;
  /** Lists per square root of the vectors at training time. */
  listsPerSqrt: number;
  /** Lists scanned per query. */
  probes: number;
  /** Training sample: this many vectors per list (capped by the vectors there are). */
  samplePerList: number;
  iterations: number;
  /** The tail (and the dead rows) may grow to this share of the rows before a re-layout. */
  tailShare: number;
}

export const DEFAULT_IVF: IvfParams = {
  exactBelow: 120_000,
  listsPerSqrt: 2,
  probes: 48,
  samplePerList: 32,
  iterations: 8,
  tailShare: 0.08,
};

const MIN_TAIL = 4096;

export class Int8Ivf {
  readonly store: Int8Vectors;
  readonly params: IvfParams;
  private readonly rng: () => number;
  private centroids: Int8Kernel | null = null;
  private centroidFactors: Float32Array = new Float32Array(0);
  private lists = 0;
  private listOf: Int32Array = new Int32Array(0);
  private segments: Int32Array = new Int32Array(1);
  private sortedEnd = 0;
  private trainedAt = 0;
  private readonly centroidQuery: Int8Array;

  constructor(dims: number, options: { capacity?: number; params?: Partial<IvfParams>; rng: () => number; simd?: boolean }) {
    this.params = { ...DEFAULT_IVF, ...options.params };
    this.rng = options.rng;
    // The lists scan rows by id and by segment; the column copy's whole-index scan would go unused.
    this.store = new Int8Vectors(dims, options.capacity ?? 1024, { simd: options.simd, autoCompact: false, columns: false });
    this.centroidQuery = new Int8Array(dims);
  }

  get size(): number {
    return this.store.size;
  }

  /** Lists in use (0 while the index is an exact scan). */
  get listCount(): number {
    return this.lists;
  }

  get probes(): number {
    return this.params.probes;
  }

  set probes(value: number) {
    this.params.probes = Math.max(1, Math.floor(value));
  }

  /** Bytes held: the vectors, the centroids and the list bookkeeping. */
  get bytes(): number {
    return this.store.bytes + (this.centroids?.bytes ?? 0) + this.listOf.byteLength + this.segments.byteLength;
  }

  has(label: number): boolean {
    return this.store.has(label);
  }

  set(label: number, vector: Float32Array): void {
    // A changed vector may belong to another list: the old row dies, the new one joins the tail.
    if (this.lists > 0 && this.store.has(label)) this.store.delete(label);
    const row = this.store.set(label, vector);
    if (this.lists > 0) {
      this.growListOf(row + 1);
      this.listOf[row] = nearestList(this.centroids!, this.centroidFactors, this.store.kernel.row(row));
    }
    this.maintain();
  }

  delete(label: number): boolean {
    const deleted = this.store.delete(label);
    if (deleted && this.lists === 0 && this.store.rowCount > this.store.size * 1.25 + 64) this.store.compact();
    if (deleted) this.maintain();
    return deleted;
  }

  search(query: Float32Array, k: number): VectorHit[] {
    if (this.lists === 0) return this.store.search(query, k);
    if (k <= 0 || this.store.size === 0) return [];
    const top = this.store.prepare(query, k);
    const probed = this.nearestLists(query, Math.min(this.params.probes, this.lists));
    for (const list of probed) {
      const end = this.segments[list + 1]!;
      for (let start = this.segments[list]!; start < end; start += KERNEL_BLOCK)
        this.store.scoreRows(start, Math.min(KERNEL_BLOCK, end - start), top);
    }
    const rows = this.store.rowCount;
    for (let start = this.sortedEnd; start < rows; start += KERNEL_BLOCK)
      this.store.scoreRows(start, Math.min(KERNEL_BLOCK, rows - start), top);
    return this.store.rerank(query, top, k);
  }

  /** Trains, re-lays out or falls back to exact as the thresholds say. */
  private maintain(): void {
    const live = this.store.size;
    if (this.lists === 0) {
      if (live >= this.params.exactBelow) this.train();
      return;
    }
    if (live < this.params.exactBelow / 2) {
      this.untrain();
      return;
    }
    if (live >= this.trainedAt * 2) {
      this.train();
      return;
    }
    const slack = Math.max(MIN_TAIL, this.params.tailShare * live);
    if (this.store.rowCount - this.sortedEnd > slack || this.store.rowCount - live > slack) this.layout();
  }

  private train(): void {
    const live = this.store.size;
    const lists = Math.max(1, Math.round(this.params.listsPerSqrt * Math.sqrt(live)));
    this.store.compact();
    const { centroids, factors } = trainCentroids(this.store, lists, {
      sample: Math.min(live, lists * this.params.samplePerList),
      iterations: this.params.iterations,
      rng: this.rng,
    });
    this.centroids = centroids;
    this.centroidFactors = factors;
    this.lists = lists;
    this.trainedAt = live;
    this.listOf = new Int32Array(this.store.rowCount);
    for (let row = 0; row < this.store.rowCount; row++) this.listOf[row] = nearestList(centroids, factors, this.store.kernel.row(row));
    this.layout();
  }

  private untrain(): void {
    this.centroids = null;
    this.lists = 0;
    this.trainedAt = 0;
    this.sortedEnd = 0;
    this.segments = new Int32Array(1);
    this.listOf = new Int32Array(0);
    this.store.compact();
  }

  /** Sorts the live rows by list (counting sort, stable) and records where each list starts. */
  private layout(): void {
    const rows = this.store.rowCount;
    const counts = new Int32Array(this.lists + 1);
    for (let row = 0; row < rows; row++) if (this.store.isLive(row)) counts[this.listOf[row]! + 1]!++;
    for (let list = 0; list < this.lists; list++) counts[list + 1]! += counts[list]!;
    const segments = counts.slice();
    const order = new Int32Array(this.store.size);
    const next = counts;
    for (let row = 0; row < rows; row++) if (this.store.isLive(row)) order[next[this.listOf[row]!]!++] = row;
    const listOf = new Int32Array(Math.max(order.length, 16));
    for (let p = 0; p < order.length; p++) listOf[p] = this.listOf[order[p]!]!;
    this.store.reorder(order);
    this.listOf = listOf;
    this.segments = segments;
    this.sortedEnd = order.length;
  }

  private nearestLists(query: Float32Array, probes: number): number[] {
    quantizeInto(query, this.centroidQuery);
    const centroids = this.centroids!;
    centroids.setQuery(this.centroidQuery);
    const top = new TopK(probes);
    for (let start = 0; start < this.lists; start += KERNEL_BLOCK) {
      const count = Math.min(KERNEL_BLOCK, this.lists - start);
      const dots = centroids.scan(start, count);
      for (let i = 0; i < count; i++) top.push(start + i, dots[i]! * this.centroidFactors[start + i]!);
    }
    return top.result().map((hit) => hit.index);
  }

  private growListOf(rows: number): void {
    if (rows <= this.listOf.length) return;
    const next = new Int32Array(Math.max(rows, this.listOf.length * 2));
    next.set(this.listOf);
    this.listOf = next;
  }
}
