/**
 * What holds the vectors of a VectorIndex and answers its nearest-neighbour searches: an HNSW graph
 * (hnswlib-wasm, persisted in its own file) or an exact scan over int8 rows (core/index/int8-vectors:
 * the WebAssembly SIMD kernel, no graph to build, nothing persisted besides the manifest: the rows
 * are filled from the vectors table when the index opens). docs/INDEX.md says which is chosen when.
 */
import type { HierarchicalNSW } from 'hnswlib-wasm';
import { Int8Vectors } from '../core/index/int8-vectors';

export type VectorStructure = 'hnsw' | 'int8';

export interface PointHit {
  label: number;
  /** Cosine similarity of unit vectors. */
  similarity: number;
}

export interface VectorPoints {
  readonly structure: VectorStructure;
  add(vector: Float32Array, label: number): void;
  markDelete(label: number): void;
  search(query: Float32Array, k: number): PointHit[];
  /** `search` for several queries, one list each. */
  searchMany(queries: readonly Float32Array[], k: number): PointHit[][];
  /** The stored vector of a label (int8: dequantized). */
  point(label: number): Float32Array;
  /** Slots in use, deleted ones included where the structure keeps them. */
  readonly slots: number;
  readonly capacity: number;
  resize(capacity: number): void;
  /** Labels the structure still holds as deleted (int8 drops them: none). */
  deletedLabels(): number[];
  setEf(ef: number): void;
}

export class HnswPoints implements VectorPoints {
  readonly structure = 'hnsw';
  constructor(readonly graph: HierarchicalNSW) {}
  add(vector: Float32Array, label: number): void {
    this.graph.addPoint(vector, label, false);
  }
  markDelete(label: number): void {
    this.graph.markDelete(label);
  }
  search(query: Float32Array, k: number): PointHit[] {
    const result = this.graph.searchKnn(query, k, undefined);
    return result.neighbors.map((label, i) => ({ label, similarity: 1 - result.distances[i]! }));
  }
  searchMany(queries: readonly Float32Array[], k: number): PointHit[][] {
    return queries.map((q) => this.search(q, k));
  }
  point(label: number): Float32Array {
    return Float32Array.from(this.graph.getPoint(label));
  }
  get slots(): number {
    return this.graph.getCurrentCount();
  }
  get capacity(): number {
    return this.graph.getMaxElements();
  }
  resize(capacity: number): void {
    this.graph.resizeIndex(capacity);
  }
  deletedLabels(): number[] {
    return this.graph.getDeletedLabels();
  }
  setEf(ef: number): void {
    this.graph.setEfSearch(ef);
  }
}

export class Int8Points implements VectorPoints {
  readonly structure = 'int8';
  readonly rows: Int8Vectors;
  constructor(dims: number, capacity: number) {
    this.rows = new Int8Vectors(dims, capacity);
  }
  add(vector: Float32Array, label: number): void {
    this.rows.set(label, vector);
  }
  markDelete(label: number): void {
    this.rows.delete(label);
  }
  search(query: Float32Array, k: number): PointHit[] {
    return this.rows.search(query, k);
  }
  searchMany(queries: readonly Float32Array[], k: number): PointHit[][] {
    return this.rows.searchMany(queries, k);
  }
  point(label: number): Float32Array {
    const row = this.rows.rowOfLabel(label);
    if (row === undefined) throw new RangeError(`label ${label} is not in the index`);
    return this.rows.vectorAt(row);
  }
  get slots(): number {
    return this.rows.size;
  }
  get capacity(): number {
    return this.rows.kernel.capacity;
  }
  resize(capacity: number): void {
    this.rows.kernel.ensureCapacity(capacity);
  }
  deletedLabels(): number[] {
    return [];
  }
  setEf(): void {
    // An exact scan has no search breadth.
  }
}

/** int8 rows need a dimension count the kernel can scan (a multiple of 16). */
export const int8Fits = (dims: number): boolean => dims > 0 && dims % 16 === 0;
