/**
 * Vectors stored as int8 (per-vector scalar quantization, int8-quantize.ts) in the SIMD kernel's
 * memory (int8-kernel.ts), with exact search: every live row is scored by the kernel, the best
 * `candidates` by int8 score are re-scored with the float query against the stored values, and the
 * best `k` of those are returned. A quarter of the memory of float32 (384 dims: 384 bytes + a
 * 4-byte factor a vector instead of 1,536 bytes).
 *
 * Rows are appended; a deleted row is marked dead and skipped, and dead rows are dropped by
 * `reorder` (or by the automatic compaction once a quarter of the rows are dead).
 */
import { asymmetricDot, quantizeInto } from './int8-quantize';
import { Int8Columns } from './int8-columns';
import { Int8Kernel, KERNEL_BLOCK, type KernelOptions } from './int8-kernel';
import { TopK } from './top-k';
import { nonZeroPositions } from './vector-math';

export interface VectorHit {
  label: number;
  /** Cosine similarity of unit vectors, from the float query and the stored int8 values. */
  similarity: number;
}

/** Candidates re-scored per query at least, and per result wanted (k x this). */
export const MIN_CANDIDATES = 32;
export const CANDIDATES_PER_RESULT = 4;
/** Rows a batched search scores for every query in turn: 1,024 x 384 bytes stays in a core's L2. */
const BATCH_ROWS = 1024;
/**
 * A query with at most this share of non-zero dimensions is scanned through the column copy
 * (int8-columns.ts) where the copy is filled, and by row where it is not yet. The copy is filled a
 * block at a time (`buildColumnsStep`, the index service's background work: built in one piece by
 * the first sparse query, it held that query back) and kept up to date from then on. The column
 * scan's cost grows with the query's dimensions and the row scan's does not: in the scratch
 * harness at 300k rows they cross near half the dimensions (34 -> 2.1 ms, 384 -> about 24 ms, rows
 * 7.1 ms); a quarter keeps a margin. The lexical embedder's queries sit near a tenth.
 */
export const SPARSE_QUERY_SHARE = 0.25;

export interface Int8VectorsOptions extends KernelOptions {
  /** Compact when a quarter of the rows are dead (default true; an IVF over the rows compacts itself). */
  autoCompact?: boolean;
  /** false: every query scans the rows (tests compare the two scans). */
  columns?: boolean;
}

/** The live rows as plain arrays, to be saved and read back whole (`exportRows` / `importRows`). */
export interface Int8Rows {
  dims: number;
  labels: Int32Array;
  factors: Float32Array;
  /** rows x dims values, row after row. */
  values: Int8Array;
}

export class Int8Vectors {
  readonly dims: number;
  readonly kernel: Int8Kernel;
  private labels: Int32Array;
  private factors: Float32Array;
  /** At least every live row's factor (a bound, not kept exact when rows go): lets `score` skip a row by its integer dot alone. */
  private maxFactor = 0;
  private live: Uint8Array;
  private readonly rowOf = new Map<number, number>();
  private used = 0;
  private readonly query: Int8Array;
  private readonly autoCompact: boolean;
  /** The rows by dimension, for sparse queries; null until its first block is filled (and where SIMD does not run). */
  private columns: Int8Columns | null = null;
  /** Blocks of the column copy filled from the rows: rows below `columnBlocks x KERNEL_BLOCK` are in it. */
  private columnBlocks = 0;
  /** A query sparse enough for the column copy was asked: its missing blocks are due (`columnsPending`). */
  private sparseAsked = false;
  /** False where SIMD does not run, when asked (`columns: false`), or once memory for the copy ran out. */
  private useColumns: boolean;

  constructor(dims: number, capacity = 1024, options: Int8VectorsOptions = {}) {
    this.dims = dims;
    this.kernel = new Int8Kernel(dims, capacity, options);
    this.labels = new Int32Array(this.kernel.capacity);
    this.factors = new Float32Array(this.kernel.capacity);
    this.live = new Uint8Array(this.kernel.capacity);
    this.query = new Int8Array(dims);
    this.autoCompact = options.autoCompact ?? true;
    this.useColumns = this.kernel.simd && options.columns !== false;
  }

  /** Live vectors. */
  get size(): number {
    return this.rowOf.size;
  }

  /** Rows in use, dead ones included. */
  get rowCount(): number {
    return this.used;
  }

  /** Bytes held: the kernel's memory, the column copy (once built), the per-row arrays, and about 40 bytes a label-map entry. */
  get bytes(): number {
    return (
      this.kernel.bytes +
      (this.columns?.bytes ?? 0) +
      this.labels.byteLength +
      this.factors.byteLength +
      this.live.byteLength +
      this.rowOf.size * 40
    );
  }

  has(label: number): boolean {
    return this.rowOf.has(label);
  }

  rowOfLabel(label: number): number | undefined {
    return this.rowOf.get(label);
  }

  labelAt(row: number): number {
    return this.labels[row]!;
  }

  isLive(row: number): boolean {
    return this.live[row] === 1;
  }

  /** The stored (dequantized) vector of a row, for training and checks. */
  vectorAt(row: number, out: Float32Array = new Float32Array(this.dims)): Float32Array {
    const values = this.kernel.row(row);
    const factor = this.factors[row]!;
    for (let i = 0; i < this.dims; i++) out[i] = values[i]! * factor;
    return out;
  }

  /** Adds or replaces the vector of `label`; returns its row. */
  set(label: number, vector: Float32Array): number {
    if (vector.length !== this.dims) throw new RangeError(`expected ${this.dims} dims, got ${vector.length}`);
    let row = this.rowOf.get(label);
    if (row === undefined) {
      row = this.used++;
      this.grow(this.used);
      this.rowOf.set(label, row);
      this.labels[row] = label;
      this.live[row] = 1;
    }
    this.factors[row] = quantizeInto(vector, this.kernel.row(row));
    this.maxFactor = Math.max(this.maxFactor, this.factors[row]!);
    if (this.columns) this.keepColumns(() => this.copyRow(row));
    return row;
  }

  /**
   * Writes a row into the column copy when the copy holds its block; a row past the filled blocks is
   * read from the rows when its block is filled, unless the copy was complete and the row is a new
   * one opening the next block.
   */
  private copyRow(row: number): void {
    const covered = this.columnBlocks * KERNEL_BLOCK;
    if (row >= covered) {
      if (row !== covered || this.used !== row + 1) return;
      this.columnBlocks++;
    }
    this.columns!.setRow(row, this.kernel.row(row));
  }

  delete(label: number): boolean {
    const row = this.rowOf.get(label);
    if (row === undefined) return false;
    this.rowOf.delete(label);
    this.live[row] = 0;
    const dead = this.used - this.rowOf.size;
    if (this.autoCompact && dead > 64 && dead * 4 > this.used) this.compact();
    return true;
  }

  /** Drops dead rows, keeping the order of the live ones. */
  compact(): void {
    const order = new Int32Array(this.rowOf.size);
    let n = 0;
    for (let row = 0; row < this.used; row++) if (this.live[row] === 1) order[n++] = row;
    this.reorder(order);
  }

  /**
   * Puts the rows in `order` (order[p] = the row that moves to p); rows not listed are dropped.
   * In place: one row of scratch memory, whatever the size.
   */
  reorder(order: Int32Array): void {
    const n = order.length;
    const position = new Int32Array(this.used).fill(-1);
    for (let p = 0; p < n; p++) {
      const row = order[p]!;
      if (row < 0 || row >= this.used || position[row] !== -1 || this.live[row] !== 1)
        throw new RangeError('reorder needs distinct live rows');
      position[row] = p;
    }
    // Complete it to a permutation of every row (dropped rows go to the end), then follow cycles.
    const source = new Int32Array(this.used);
    source.set(order);
    let tail = n;
    for (let row = 0; row < this.used; row++) if (position[row] === -1) source[tail++] = row;
    const rows = this.kernel.rows();
    const dims = this.dims;
    const scratch = new Int8Array(dims);
    const done = new Uint8Array(this.used);
    for (let start = 0; start < this.used; start++) {
      if (done[start] || source[start] === start) continue;
      scratch.set(rows.subarray(start * dims, start * dims + dims));
      const label = this.labels[start]!;
      const factor = this.factors[start]!;
      const live = this.live[start]!;
      let to = start;
      for (;;) {
        done[to] = 1;
        const from = source[to]!;
        if (from === start) {
          rows.set(scratch, to * dims);
          this.labels[to] = label;
          this.factors[to] = factor;
          this.live[to] = live;
          break;
        }
        rows.copyWithin(to * dims, from * dims, from * dims + dims);
        this.labels[to] = this.labels[from]!;
        this.factors[to] = this.factors[from]!;
        this.live[to] = this.live[from]!;
        to = from;
      }
    }
    this.used = n;
    this.live.fill(0, n);
    this.rowOf.clear();
    for (let row = 0; row < n; row++) this.rowOf.set(this.labels[row]!, row);
    // The rows moved: the copy is filled again, a block at a time (scanned by row meanwhile).
    this.columnBlocks = 0;
  }

  /** Copies of the live rows, in row order (dead rows left out). */
  exportRows(): Int8Rows {
    const n = this.rowOf.size;
    const labels = new Int32Array(n);
    const factors = new Float32Array(n);
    const values = new Int8Array(n * this.dims);
    const rows = this.kernel.rows();
    let p = 0;
    for (let row = 0; row < this.used; row++) {
      if (this.live[row] !== 1) continue;
      labels[p] = this.labels[row]!;
      factors[p] = this.factors[row]!;
      values.set(rows.subarray(row * this.dims, (row + 1) * this.dims), p * this.dims);
      p++;
    }
    return { dims: this.dims, labels, factors, values };
  }

  /** Holds exactly `saved` from now on (what `exportRows` gave). Throws when it does not fit. */
  importRows(saved: Int8Rows): void {
    const n = saved.labels.length;
    if (saved.dims !== this.dims || saved.factors.length !== n || saved.values.length !== n * this.dims)
      throw new RangeError(`saved int8 rows of ${saved.dims} dims do not fit this index (${this.dims} dims)`);
    this.rowOf.clear();
    this.used = 0;
    this.live.fill(0);
    this.grow(n);
    this.kernel.rows().set(saved.values);
    this.labels.set(saved.labels);
    this.factors.set(saved.factors);
    this.maxFactor = 0;
    for (let row = 0; row < n; row++) this.maxFactor = Math.max(this.maxFactor, saved.factors[row]!);
    this.live.fill(1, 0, n);
    this.used = n;
    this.columnBlocks = 0;
    for (let row = 0; row < n; row++) this.rowOf.set(saved.labels[row]!, row);
    if (this.rowOf.size !== n) {
      this.rowOf.clear();
      this.used = 0;
      this.live.fill(0);
      throw new RangeError('saved int8 rows repeat a label');
    }
  }

  /** Exact search over every live row. */
  search(query: Float32Array, k: number): VectorHit[] {
    if (k <= 0 || this.rowOf.size === 0) return [];
    const top = this.prepare(query, k);
    const covered = this.sparseColumns(this.query);
    this.scoreColumns(covered, top);
    for (let start = covered; start < this.used; start += KERNEL_BLOCK)
      this.scoreRows(start, Math.min(KERNEL_BLOCK, this.used - start), top);
    return this.rerank(query, top, k);
  }

  /**
   * For a query sparse enough for the column copy (quantized): sets it on the copy and returns how
   * many rows, from the first, the copy holds (0: scan every row by row). The rest are scanned by row.
   */
  private sparseColumns(query: Int8Array): number {
    if (!this.useColumns) return 0;
    let nonZero = 0;
    for (let d = 0; d < this.dims; d++) if (query[d] !== 0) nonZero++;
    if (nonZero > SPARSE_QUERY_SHARE * this.dims) return 0;
    this.sparseAsked = true;
    const covered = Math.min(this.used, this.columnBlocks * KERNEL_BLOCK);
    if (covered > 0) this.columns!.setQuery(query);
    return covered;
  }

  /** Rows, from the first, that the column copy holds (0: none yet, or no copy is kept). */
  get columnRows(): number {
    return this.columns ? Math.min(this.used, this.columnBlocks * KERNEL_BLOCK) : 0;
  }

  /** True when the copy holds every row (trivially so for an empty index). */
  private get columnsComplete(): boolean {
    return this.columnBlocks * KERNEL_BLOCK >= this.used && (this.used === 0 || this.columns !== null);
  }

  /**
   * True when a sparse query was asked and the column copy still misses blocks: the caller's
   * background work should go on with `buildColumnsStep`.
   */
  get columnsPending(): boolean {
    return this.useColumns && this.sparseAsked && !this.columnsComplete;
  }

  /**
   * True when the column copy misses blocks that sparse queries will want: one was asked, or the
   * rows look sparse (the lexical embedder's; a neural embedder's rows and queries are dense and
   * never read it).
   */
  columnsWanted(): boolean {
    return this.useColumns && !this.columnsComplete && (this.sparseAsked || this.rowsLookSparse());
  }

  /**
   * Fills up to `blocks` more blocks of KERNEL_BLOCK rows of the column copy from the rows (the
   * whole copy took about 0.4 s at 300k rows in Node: docs/INDEX.md). True when nothing is left to
   * fill: the copy holds every row, or it will never be kept (no SIMD, `columns: false`, or its
   * memory ran out).
   */
  buildColumnsStep(blocks = 1): boolean {
    if (!this.useColumns) return true;
    const total = Math.ceil(this.used / KERNEL_BLOCK);
    const to = Math.min(total, this.columnBlocks + blocks);
    if (to > this.columnBlocks || (!this.columns && this.used > 0)) {
      this.keepColumns(() => {
        this.columns ??= Int8Columns.create(this.dims);
        if (!this.columns) {
          this.useColumns = false;
          return;
        }
        this.columns.fill(this.kernel.rows(), this.used, this.columnBlocks, to);
        this.columnBlocks = to;
      });
    }
    return !this.useColumns || this.columnsComplete;
  }

  /**
   * Fills the whole column copy now when the rows look sparse (the app fills it a block at a time,
   * `buildColumnsStep`): what a benchmark does to count the copy in the build. True when the copy
   * exists.
   */
  prepareColumns(): boolean {
    if (this.columnsComplete && this.columns) return true;
    if (!this.rowsLookSparse()) return false;
    while (!this.buildColumnsStep(Number.MAX_SAFE_INTEGER));
    return this.columns !== null;
  }

  /**
   * Runs a change of the column copy; when its memory cannot grow (a browser's limit), drops the
   * copy for good: every query then scans the rows, as without it.
   */
  private keepColumns(change: () => void): void {
    try {
      change();
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      this.columns = null;
      this.columnBlocks = 0;
      this.useColumns = false;
    }
  }

  /**
   * True when at most half the values of up to 256 rows spread over the index are non-zero (the
   * lexical embedder's rows: about a quarter; a neural embedder's: nearly all).
   */
  private rowsLookSparse(): boolean {
    if (!this.useColumns || this.used === 0) return false;
    const rows = this.kernel.rows();
    const step = Math.max(1, Math.floor(this.used / 256));
    let seen = 0;
    let nonZero = 0;
    for (let row = 0; row < this.used; row += step) {
      const base = row * this.dims;
      for (let d = 0; d < this.dims; d++) if (rows[base + d] !== 0) nonZero++;
      seen += this.dims;
    }
    return nonZero <= seen / 2;
  }

  /**
   * Exact search for several queries in one pass over the rows: each block of BATCH_ROWS rows is
   * scored for every query while it is in cache, so the rows stream from memory once, not once a
   * query (at 300k rows a scan is bound by memory bandwidth). Same results as `search` per query.
   */
  searchMany(queries: readonly Float32Array[], k: number): VectorHit[][] {
    if (queries.length <= 1) return queries.map((q) => this.search(q, k));
    if (k <= 0 || this.rowOf.size === 0) return queries.map(() => []);
    const quantized = queries.map((q) => {
      if (q.length !== this.dims) throw new RangeError(`expected ${this.dims} dims, got ${q.length}`);
      const out = new Int8Array(this.dims);
      quantizeInto(q, out);
      return out;
    });
    const tops = queries.map(() => new TopK(Math.max(MIN_CANDIDATES, k * CANDIDATES_PER_RESULT)));
    // Sparse queries go through the column copy one by one (each reads only its own dimensions),
    // by row past the blocks it holds yet.
    const dense: number[] = [];
    quantized.forEach((q, i) => {
      const covered = this.sparseColumns(q);
      if (covered === 0) return dense.push(i);
      this.scoreColumns(covered, tops[i]!);
      if (covered === this.used) return;
      this.kernel.setQuery(q);
      for (let start = covered; start < this.used; start += KERNEL_BLOCK)
        this.scoreRows(start, Math.min(KERNEL_BLOCK, this.used - start), tops[i]!);
    });
    for (let start = 0; dense.length > 0 && start < this.used; start += BATCH_ROWS) {
      const count = Math.min(BATCH_ROWS, this.used - start);
      for (const i of dense) {
        this.kernel.setQuery(quantized[i]!);
        this.scoreRows(start, count, tops[i]!);
      }
    }
    return queries.map((q, i) => this.rerank(q, tops[i]!, k));
  }

  /** Sets the kernel's query and returns an empty candidate list for `k` results. */
  prepare(query: Float32Array, k: number): TopK {
    if (query.length !== this.dims) throw new RangeError(`expected ${this.dims} dims, got ${query.length}`);
    quantizeInto(query, this.query);
    this.kernel.setQuery(this.query);
    return new TopK(Math.max(MIN_CANDIDATES, k * CANDIDATES_PER_RESULT));
  }

  /** Scores rows [start, start + count) (count <= KERNEL_BLOCK) into `top`. */
  scoreRows(start: number, count: number, top: TopK): void {
    this.score(start, count, this.kernel.scan(start, count), top);
  }

  /** Scores rows [0, rows) into `top` through the column copy (its query set by `sparseColumns`). */
  private scoreColumns(rows: number, top: TopK): void {
    for (let start = 0; start < rows; start += KERNEL_BLOCK) {
      const count = Math.min(KERNEL_BLOCK, rows - start);
      this.score(start, count, this.columns!.scan(start, count), top);
    }
  }

  /**
   * Pushes the live rows of [start, start + count) into `top` by their int8 dot products `dots`.
   * A row scoring below the k-th kept one cannot enter and is not pushed at all (a tie is left to
   * `push`, which keeps the lower row): most rows of a large scan end there.
   */
  private score(start: number, count: number, dots: Int32Array, top: TopK): void {
    const { factors, live } = this;
    let floor = top.worst();
    let least = this.leastDot(floor);
    for (let i = 0; i < count; i++) {
      const dot = dots[i]!;
      // No factor can lift this dot to the floor: the row ends here, its factor and liveness unread.
      if (dot < least) continue;
      const row = start + i;
      if (live[row] !== 1) continue;
      const score = dot * factors[row]!;
      if (score < floor) continue;
      top.push(row, score);
      floor = top.worst();
      least = this.leastDot(floor);
    }
  }

  /**
   * The smallest integer dot that can reach `floor` with the largest factor; -Infinity while the
   * floor is not positive (a negative dot times a smaller factor can still rise above a negative
   * floor). The margin keeps the division's rounding from skipping a row that ties the floor.
   */
  private leastDot(floor: number): number {
    return floor > 0 && this.maxFactor > 0 ? (floor / this.maxFactor) * (1 - 1e-6) : -Infinity;
  }

  /** Scores the first `count` rows written into `this.kernel.ids()` into `top`. */
  scoreIds(count: number, top: TopK): void {
    const ids = this.kernel.ids();
    const dots = this.kernel.scanIds(count);
    const { factors, live } = this;
    for (let i = 0; i < count; i++) {
      const row = ids[i]!;
      if (live[row] === 1) top.push(row, dots[i]! * factors[row]!);
    }
  }

  /** The best `k` candidates by the float query against their stored values, best first. */
  rerank(query: Float32Array, candidates: TopK, k: number): VectorHit[] {
    const best = new TopK(k);
    const at = nonZeroPositions(query);
    for (const { index: row } of candidates.result()) best.push(row, asymmetricDot(query, this.kernel.row(row), this.factors[row]!, at));
    return best.result().map((hit) => ({ label: this.labels[hit.index]!, similarity: hit.score }));
  }

  private grow(rows: number): void {
    if (rows <= this.labels.length) return;
    this.kernel.ensureCapacity(rows);
    const capacity = this.kernel.capacity;
    const labels = new Int32Array(capacity);
    labels.set(this.labels);
    const factors = new Float32Array(capacity);
    factors.set(this.factors);
    const live = new Uint8Array(capacity);
    live.set(this.live);
    this.labels = labels;
    this.factors = factors;
    this.live = live;
  }
}
