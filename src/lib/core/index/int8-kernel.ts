/**
 * int8 rows and the dot-product kernel that scans them: WebAssembly SIMD (int8-kernel.wat, 1,221
 * bytes with the column scan of int8-columns.ts) where the runtime validates it, otherwise the
 * same integer arithmetic in plain JavaScript (identical results, several times slower). The rows
 * live in the kernel's memory and grow at its end, so adding rows never copies them.
 *
 * Why our own kernel: no maintained npm package ships a browser WebAssembly int8 distance kernel
 * (simsimd and usearch ship native Node addons with a plain-JS fallback; NumKong's WASM build is
 * source only). Measured in tests/bench/index-vectors.bench.ts.
 */
import { INT8_KERNEL_WASM_BASE64 } from './int8-kernel-bytes';

/** Rows scanned per kernel call: the size of the scratch result and id regions. */
export const KERNEL_BLOCK = 8192;
const PAGE = 65_536;

interface KernelExports {
  memory: WebAssembly.Memory;
  scan(q: number, data: number, rows: number, dims: number, out: number): void;
  scanRows(q: number, data: number, ids: number, count: number, dims: number, out: number): void;
}

let compiled: WebAssembly.Module | null | undefined;

/** The compiled SIMD kernel, or null where the runtime does not validate it. */
export function kernelModule(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  compiled = null;
  if (typeof WebAssembly === 'undefined') return null;
  const bytes = Uint8Array.from(atob(INT8_KERNEL_WASM_BASE64), (c) => c.charCodeAt(0));
  // A runtime without SIMD rejects the module: validate first, fall back to JavaScript.
  if (WebAssembly.validate(bytes)) compiled = new WebAssembly.Module(bytes);
  return compiled;
}

export interface KernelOptions {
  /** false forces the JavaScript kernel (tests compare the two). */
  simd?: boolean;
}

/**
 * `capacity` rows of `dims` int8 values, a query and the kernel. Memory layout: the widened
 * query (dims i16), the result block (KERNEL_BLOCK i32), the id block (KERNEL_BLOCK i32), then the
 * rows.
 */
export class Int8Kernel {
  readonly dims: number;
  readonly simd: boolean;
  private readonly wasm: KernelExports | null;
  private js: ArrayBuffer | null;
  private readonly queryAt: number;
  private readonly outAt: number;
  private readonly idsAt: number;
  private readonly rowsAt: number;
  private rowCapacity = 0;

  constructor(dims: number, capacity = 1024, options: KernelOptions = {}) {
    if (!Number.isInteger(dims) || dims <= 0 || dims % 16 !== 0)
      throw new RangeError(`dims must be a positive multiple of 16, got ${dims}`);
    this.dims = dims;
    const module = options.simd === false ? null : kernelModule();
    this.wasm = module ? (new WebAssembly.Instance(module, {}).exports as unknown as KernelExports) : null;
    this.js = this.wasm ? null : new ArrayBuffer(0);
    this.simd = this.wasm !== null;
    this.queryAt = 0;
    this.outAt = align(dims * 2);
    this.idsAt = this.outAt + KERNEL_BLOCK * 4;
    this.rowsAt = this.idsAt + KERNEL_BLOCK * 4;
    this.ensureCapacity(Math.max(1, capacity));
  }

  get capacity(): number {
    return this.rowCapacity;
  }

  /** Bytes the kernel holds (its whole linear memory). */
  get bytes(): number {
    return this.buffer().byteLength;
  }

  /** Grows to hold at least `rows` rows (capacity doubles). Views taken before are invalid after. */
  ensureCapacity(rows: number): void {
    if (rows <= this.rowCapacity) return;
    const capacity = Math.max(rows, this.rowCapacity * 2, 16);
    const needed = this.rowsAt + capacity * this.dims;
    if (this.wasm) {
      const have = this.wasm.memory.buffer.byteLength;
      if (needed > have) this.wasm.memory.grow(Math.ceil((needed - have) / PAGE));
    } else {
      const next = new ArrayBuffer(align(needed));
      new Uint8Array(next).set(new Uint8Array(this.js!));
      this.js = next;
    }
    this.rowCapacity = capacity;
  }

  /** The rows' int8 values (capacity x dims): write a row here, then scan. */
  rows(): Int8Array {
    return new Int8Array(this.buffer(), this.rowsAt, this.rowCapacity * this.dims);
  }

  row(index: number): Int8Array {
    return new Int8Array(this.buffer(), this.rowsAt + index * this.dims, this.dims);
  }

  /** Sets the query (int8 values) for the next scans. */
  setQuery(query: Int8Array): void {
    if (query.length !== this.dims) throw new RangeError(`expected ${this.dims} dims, got ${query.length}`);
    new Int16Array(this.buffer(), this.queryAt, this.dims).set(query);
  }

  /** dot(query, row) for rows [start, start + count), count <= KERNEL_BLOCK; a view valid until the next call. */
  scan(start: number, count: number): Int32Array {
    if (count > KERNEL_BLOCK || start < 0 || start + count > this.rowCapacity) throw new RangeError('scan outside the rows');
    if (this.wasm) this.wasm.scan(this.queryAt, this.rowsAt + start * this.dims, count, this.dims, this.outAt);
    else this.scanJs(start, count);
    return new Int32Array(this.buffer(), this.outAt, count);
  }

  /** The id block: write up to KERNEL_BLOCK row numbers, then call scanIds(count). */
  ids(): Int32Array {
    return new Int32Array(this.buffer(), this.idsAt, KERNEL_BLOCK);
  }

  /** dot(query, row) for the first `count` rows named in the id block. */
  scanIds(count: number): Int32Array {
    if (count > KERNEL_BLOCK) throw new RangeError('too many ids for one scan');
    if (this.wasm) this.wasm.scanRows(this.queryAt, this.rowsAt, this.idsAt, count, this.dims, this.outAt);
    else this.scanIdsJs(count);
    return new Int32Array(this.buffer(), this.outAt, count);
  }

  private buffer(): ArrayBuffer {
    return this.wasm ? this.wasm.memory.buffer : this.js!;
  }

  private scanJs(start: number, count: number): void {
    const buffer = this.buffer();
    const q = new Int16Array(buffer, this.queryAt, this.dims);
    const rows = new Int8Array(buffer, this.rowsAt, this.rowCapacity * this.dims);
    const out = new Int32Array(buffer, this.outAt, count);
    for (let i = 0; i < count; i++) out[i] = dotJs(q, rows, (start + i) * this.dims, this.dims);
  }

  private scanIdsJs(count: number): void {
    const buffer = this.buffer();
    const q = new Int16Array(buffer, this.queryAt, this.dims);
    const rows = new Int8Array(buffer, this.rowsAt, this.rowCapacity * this.dims);
    const ids = new Int32Array(buffer, this.idsAt, count);
    const out = new Int32Array(buffer, this.outAt, count);
    for (let i = 0; i < count; i++) out[i] = dotJs(q, rows, ids[i]! * this.dims, this.dims);
  }
}

function dotJs(q: Int16Array, rows: Int8Array, base: number, dims: number): number {
  let sum = 0;
  for (let d = 0; d < dims; d++) sum += q[d]! * rows[base + d]!;
  return sum;
}

function align(bytes: number): number {
  return Math.ceil(bytes / 16) * 16;
}
