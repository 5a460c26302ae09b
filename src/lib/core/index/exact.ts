/**
 * Exact (brute-force) cosine search over unit vectors in one contiguous Float32Array: the ground
 * truth the HNSW index is measured against, and a fallback for small vaults. O(n * dims) a query.
 */
import { TopK } from './top-k';

export interface ExactHit {
  label: number;
  similarity: number;
}

export class FlatVectors {
  readonly dims: number;
  private data: Float32Array;
  private labels: Int32Array;
  private rows = 0;
  private rowOf = new Map<number, number>();

  constructor(dims: number, capacity = 1024) {
    this.dims = dims;
    this.data = new Float32Array(dims * Math.max(1, capacity));
    this.labels = new Int32Array(Math.max(1, capacity));
  }

  get size(): number {
    return this.rows;
  }

  /** Adds or replaces the vector of `label` (expected unit length: similarity is the dot product). */
  set(label: number, vector: Float32Array): void {
    if (vector.length !== this.dims) throw new RangeError(`expected ${this.dims} dims, got ${vector.length}`);
    let row = this.rowOf.get(label);
    if (row === undefined) {
      if (this.rows === this.labels.length) this.grow();
      row = this.rows++;
      this.rowOf.set(label, row);
      this.labels[row] = label;
    }
    this.data.set(vector, row * this.dims);
  }

  /** Removes by moving the last row into the hole: O(dims). */
  delete(label: number): boolean {
    const row = this.rowOf.get(label);
    if (row === undefined) return false;
    const last = --this.rows;
    this.rowOf.delete(label);
    if (row !== last) {
      const moved = this.labels[last]!;
      this.data.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      this.labels[row] = moved;
      this.rowOf.set(moved, row);
    }
    return true;
  }

  search(query: Float32Array, k: number): ExactHit[] {
    const { dims, data } = this;
    const top = new TopK(k);
    for (let row = 0; row < this.rows; row++) {
      let dot = 0;
      const base = row * dims;
      for (let i = 0; i < dims; i++) dot += data[base + i]! * query[i]!;
      top.push(this.labels[row]!, dot);
    }
    return top.result().map((hit) => ({ label: hit.index, similarity: hit.score }));
  }

  private grow(): void {
    const capacity = this.labels.length * 2;
    const data = new Float32Array(capacity * this.dims);
    data.set(this.data);
    const labels = new Int32Array(capacity);
    labels.set(this.labels);
    this.data = data;
    this.labels = labels;
  }
}
