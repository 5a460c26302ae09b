/**
 * Where the engine keeps its vectors: exact search over a `FlatVectors` (small vaults, and the
 * ground truth), or the persisted HNSW `VectorIndex` (large vaults). Both answer top-k by cosine
 * and the exact similarity of a few named records (the funnel's floor needs it for candidates BM25
 * alone found). Record ids map to integer labels here.
 */
import { FlatVectors } from '../../src/lib/core/index/exact';
import type { VectorHit, VectorSearcher } from '../../src/lib/core/recall/ports';

export interface VectorEntry {
  id: string;
  contentHash: string;
  vector: Float32Array;
}

export interface VectorBackend extends VectorSearcher {
  readonly kind: 'exact' | 'hnsw';
  readonly size: number;
  add(entries: readonly VectorEntry[]): void;
  remove(id: string): boolean;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Exact cosine over unit vectors: O(n * dims) a query, so for vaults up to some ten thousand chunks. */
export class ExactVectors implements VectorBackend {
  readonly kind = 'exact' as const;
  private readonly flat: FlatVectors;
  private readonly labelOf = new Map<string, number>();
  private readonly idOf = new Map<number, string>();
  private readonly vectors = new Map<string, Float32Array>();
  private nextLabel = 0;

  constructor(dims: number, capacity = 1024) {
    this.flat = new FlatVectors(dims, capacity);
  }

  get size(): number {
    return this.flat.size;
  }

  add(entries: readonly VectorEntry[]): void {
    for (const { id, vector } of entries) {
      let label = this.labelOf.get(id);
      if (label === undefined) {
        label = this.nextLabel++;
        this.labelOf.set(id, label);
        this.idOf.set(label, id);
      }
      this.flat.set(label, vector);
      this.vectors.set(id, vector);
    }
  }

  remove(id: string): boolean {
    const label = this.labelOf.get(id);
    if (label === undefined) return false;
    this.flat.delete(label);
    this.labelOf.delete(id);
    this.idOf.delete(label);
    this.vectors.delete(id);
    return true;
  }

  async search(vector: Float32Array, k: number): Promise<VectorHit[]> {
    return this.flat.search(vector, k).map((hit) => ({ id: this.idOf.get(hit.label)!, similarity: hit.similarity }));
  }

  async similarity(vector: Float32Array, ids: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const id of ids) {
      const v = this.vectors.get(id);
      if (v) out.set(id, dot(vector, v));
    }
    return out;
  }
}
