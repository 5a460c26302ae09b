/**
 * The HNSW backend: the store's `VectorIndex` (hnswlib-wasm, cosine) behind the engine's
 * `VectorBackend`. Loaded on demand (`createHnswVectors`), so an engine that uses exact search never
 * loads the WASM module. Exact similarities for named records come from the vectors HNSW stores.
 */
import type { VectorHit } from '../../src/lib/core/recall/ports';
import type { ManifestStore, VectorIndexManifest } from '../../src/lib/store/vector-index-manifest';
import { VectorIndex, type HnswParams } from '../../src/lib/store/vector-index';
import type { VectorBackend, VectorEntry } from './vector-backend';

/** The engine keeps its index in memory; saving it is the index worker's business (its own manifests). */
export function memoryManifests(): ManifestStore {
  const byName = new Map<string, VectorIndexManifest>();
  return {
    get: async (name) => byName.get(name),
    put: async (manifest) => {
      byName.set(manifest.name, manifest);
    },
    delete: async (name) => {
      byName.delete(name);
    },
  };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * Vectors read back from HNSW for exact similarities, kept for the next variants of the same query
 * (each reads the same candidates): reading a point out of the WASM heap costs ~0.1 ms.
 */
const POINT_CACHE = 2_048;

export class HnswVectors implements VectorBackend {
  readonly kind = 'hnsw' as const;
  private readonly points = new Map<string, Float32Array>();
  /** Similarities HNSW already returned for a query vector: `similarity` reads them first. */
  private readonly found = new WeakMap<Float32Array, Map<string, number>>();

  constructor(readonly index: VectorIndex) {}

  private point(id: string): Float32Array | null {
    const cached = this.points.get(id);
    if (cached) return cached;
    const label = this.index.labelOf(id);
    if (label === undefined) return null;
    const vector = this.index.vectorOf(label);
    if (this.points.size >= POINT_CACHE) this.points.delete(this.points.keys().next().value!);
    this.points.set(id, vector);
    return vector;
  }

  get size(): number {
    return this.index.count;
  }

  add(entries: readonly VectorEntry[]): void {
    for (const e of entries) this.points.delete(e.id);
    this.index.add(entries.map((e) => ({ recordId: e.id, contentHash: e.contentHash, vector: e.vector })));
  }

  remove(id: string): boolean {
    this.points.delete(id);
    return this.index.remove(id);
  }

  async search(vector: Float32Array, k: number): Promise<VectorHit[]> {
    const hits = this.index.search(vector, k).map((hit) => ({ id: hit.recordId, similarity: hit.similarity }));
    this.found.set(vector, new Map(hits.map((h) => [h.id, h.similarity])));
    return hits;
  }

  async similarity(vector: Float32Array, ids: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const found = this.found.get(vector);
    for (const id of ids) {
      const known = found?.get(id);
      if (known !== undefined) {
        out.set(id, known);
        continue;
      }
      const point = this.point(id);
      if (point) out.set(id, dot(vector, point));
    }
    return out;
  }
}

export interface HnswVectorsOptions {
  name?: string;
  modelId: string;
  dims: number;
  capacity?: number;
  params?: Partial<HnswParams>;
  manifests?: ManifestStore;
}

export async function createHnswVectors(options: HnswVectorsOptions): Promise<HnswVectors> {
  const index = await VectorIndex.create({
    name: options.name ?? `recall-${options.modelId}`,
    modelId: options.modelId,
    dims: options.dims,
    ...(options.capacity ? { capacity: options.capacity } : {}),
    ...(options.params ? { params: options.params } : {}),
    manifests: options.manifests ?? memoryManifests(),
  });
  return new HnswVectors(index);
}
