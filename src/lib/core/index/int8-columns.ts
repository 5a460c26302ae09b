/**
 * A column copy of int8 rows, for sparse queries. A query of the lexical embedder has few non-zero
 * dimensions (37 of 384 at the median over 200 LoCoMo questions; its features are hashed words,
 * bigrams and character trigrams), and a dimension the query leaves at zero adds nothing to any
 * dot product. Stored by dimension, a scan reads only the query's dimensions: at 300k rows the
 * SIMD kernel's `scanSparse` took 2.1 ms where the row scan took 7.1 ms (a scratch harness, random
 * rows a quarter non-zero, 34 query dimensions, medians of 101; identical sums). A dense query (a
 * neural embedder's) would read every column, slower than the rows: Int8Vectors scans those by row.
 *
 * Layout: blocks of KERNEL_BLOCK rows, appended as rows are added (growing never copies a block);
 * in a block, dimension after dimension, each dimension's KERNEL_BLOCK values in row order. Reading
 * a dimension of a block is then one sequential run of 8 KB, which the hardware prefetches (with 64
 * rows per block instead, the reads hopped between cache lines and took 14.7 ms). Memory: the
 * query's (dimension, value) pairs, the result block, then the blocks.
 */
import { KERNEL_BLOCK, kernelModule } from './int8-kernel';

const PAGE = 65_536;
/** Rows the kernel sums at once (16 i32x4 lanes). */
const LANES = 64;

interface ColumnExports {
  memory: WebAssembly.Memory;
  scanSparse(pairs: number, count: number, data: number, blocks: number, out: number): void;
}

export class Int8Columns {
  readonly dims: number;
  private readonly wasm: ColumnExports;
  private readonly pairsAt = 0;
  private readonly outAt: number;
  private readonly dataAt: number;
  private blocks = 0;
  private pairCount = 0;

  /** Null where the SIMD kernel does not run (the row scan's JavaScript kernel serves every query there). */
  static create(dims: number): Int8Columns | null {
    const module = kernelModule();
    return module ? new Int8Columns(dims, module) : null;
  }

  private constructor(dims: number, module: WebAssembly.Module) {
    this.dims = dims;
    this.wasm = new WebAssembly.Instance(module, {}).exports as unknown as ColumnExports;
    this.outAt = align(dims * 8);
    this.dataAt = this.outAt + KERNEL_BLOCK * 4;
  }

  /** Rows the blocks hold. */
  get capacity(): number {
    return this.blocks * KERNEL_BLOCK;
  }

  get bytes(): number {
    return this.wasm.memory.buffer.byteLength;
  }

  /** Adds blocks until `rows` rows fit. */
  ensureCapacity(rows: number): void {
    const blocks = Math.ceil(rows / KERNEL_BLOCK);
    if (blocks <= this.blocks) return;
    const needed = this.dataAt + blocks * KERNEL_BLOCK * this.dims;
    const have = this.wasm.memory.buffer.byteLength;
    if (needed > have) this.wasm.memory.grow(Math.ceil((needed - have) / PAGE));
    this.blocks = blocks;
  }

  /** Writes one row's values. */
  setRow(row: number, values: Int8Array): void {
    this.ensureCapacity(row + 1);
    const block = this.block(Math.floor(row / KERNEL_BLOCK));
    const at = row % KERNEL_BLOCK;
    for (let d = 0; d < this.dims; d++) block[d * KERNEL_BLOCK + at] = values[d]!;
  }

  /**
   * Writes rows [0, count) from `rows` (count x dims, row after row), block by block: blocks
   * [fromBlock, toBlock) only when given (a copy built a slice at a time). The blocks are cleared
   * first and only non-zero values written, read four at a time: the lexical embedder's rows are
   * about three quarters zeros.
   */
  fill(rows: Int8Array, count: number, fromBlock = 0, toBlock = Math.ceil(count / KERNEL_BLOCK)): void {
    this.ensureCapacity(count);
    const dims = this.dims;
    // Four values at a time where the view allows it (the kernel's rows are 16-byte aligned).
    const source = rows.byteOffset % 4 === 0 ? rows : rows.slice(0, count * dims);
    const words = new Int32Array(source.buffer, source.byteOffset, (count * dims) / 4);
    const perRow = dims / 4;
    for (let b = fromBlock; b < toBlock && b * KERNEL_BLOCK < count; b++) {
      const block = this.block(b);
      block.fill(0);
      const first = b * KERNEL_BLOCK;
      const n = Math.min(KERNEL_BLOCK, count - first);
      for (let i = 0; i < n; i++) {
        const base = (first + i) * dims;
        const wordBase = base / 4;
        for (let w = 0; w < perRow; w++) {
          if (words[wordBase + w] === 0) continue;
          for (let d = w * 4; d < w * 4 + 4; d++) {
            const value = source[base + d]!;
            if (value !== 0) block[d * KERNEL_BLOCK + i] = value;
          }
        }
      }
    }
  }

  /** Sets the query for the next scans: its non-zero dimensions and values. Returns how many there are. */
  setQuery(query: Int8Array): number {
    if (query.length !== this.dims) throw new RangeError(`expected ${this.dims} dims, got ${query.length}`);
    const pairs = new Int32Array(this.wasm.memory.buffer, this.pairsAt, this.dims * 2);
    let n = 0;
    for (let d = 0; d < this.dims; d++) {
      if (query[d] === 0) continue;
      pairs[2 * n] = d * KERNEL_BLOCK;
      pairs[2 * n + 1] = query[d]!;
      n++;
    }
    this.pairCount = n;
    return n;
  }

  /**
   * dot(query, row) for rows [start, start + count): `start` a multiple of KERNEL_BLOCK, count <=
   * KERNEL_BLOCK, inside the capacity. A view valid until the next call.
   */
  scan(start: number, count: number): Int32Array {
    if (start % KERNEL_BLOCK !== 0 || count > KERNEL_BLOCK || start < 0 || start + count > this.capacity)
      throw new RangeError('column scan outside the blocks');
    const data = this.dataAt + (start / KERNEL_BLOCK) * KERNEL_BLOCK * this.dims;
    this.wasm.scanSparse(this.pairsAt, this.pairCount, data, Math.ceil(count / LANES), this.outAt);
    return new Int32Array(this.wasm.memory.buffer, this.outAt, count);
  }

  private block(b: number): Int8Array {
    return new Int8Array(this.wasm.memory.buffer, this.dataAt + b * KERNEL_BLOCK * this.dims, KERNEL_BLOCK * this.dims);
  }
}

function align(bytes: number): number {
  return Math.ceil(bytes / 16) * 16;
}
