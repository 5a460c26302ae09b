/**
 * The manifest stored alongside a persisted HNSW index: its settings and the label -> record map
 * with a content-hash prefix per label, so a reload can prove that every label still names the
 * content it was built from. Kept in a small database of its own: hnswlib-wasm's IDBFS exposes
 * files to its own index code only.
 */
import Dexie, { type Table } from 'dexie';

export interface HnswParams {
  /** Links per node (memory and recall grow with it). */
  M: number;
  efConstruction: number;
  /** Search breadth: recall and latency grow with it. */
  ef: number;
  seed: number;
}

export interface VectorIndexManifest {
  name: string;
  modelId: string;
  dims: number;
  /** What holds the vectors (vector-points.ts); manifests saved before it existed are 'hnsw'. */
  structure?: 'hnsw' | 'int8';
  params: HnswParams;
  capacity: number;
  nextLabel: number;
  /** Labels marked deleted inside the HNSW file (they still occupy slots). */
  deleted: number;
  /**
   * Live entries, three parallel columns (empty for int8 saved without its rows: they come from the
   * vectors table).
   */
  labels: number[];
  recordIds: string[];
  /** First 16 hex digits of each record's content hash. */
  hashes: string[];
  savedAt: number;
  /** int8 only: the token of the rows blob saved with this manifest (vector-index.ts `int8RowsKey`). */
  rowsToken?: string;
}

export interface ManifestStore {
  get(name: string): Promise<VectorIndexManifest | undefined>;
  put(manifest: VectorIndexManifest): Promise<void>;
  delete(name: string): Promise<void>;
}

export const HASH_PREFIX = 16;
export const hashPrefix = (contentHash: string): string => contentHash.slice(0, HASH_PREFIX);

/** A value kept next to the indexes (the BM25 bytes, the last health report, ...). */
export interface BlobStore {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

class IndexCacheDb extends Dexie {
  manifests!: Table<VectorIndexManifest, string>;
  blobs!: Table<{ key: string; value: unknown }, string>;
  constructor(name: string) {
    super(name);
    this.version(1).stores({ manifests: 'name' });
    // Version 2: other derived index state (BM25 bytes, health), device-local like the manifests.
    this.version(2).stores({ manifests: 'name', blobs: 'key' });
  }
}

export const INDEX_CACHE_DB = 'engram-vector-index';

/** The manifests and blobs of the index cache database (derived data: never part of a vault file). */
export function openIndexCache(databaseName = INDEX_CACHE_DB): { manifests: ManifestStore; blobs: BlobStore; close(): void } {
  const db = new IndexCacheDb(databaseName);
  return {
    manifests: {
      get: (name) => db.manifests.get(name),
      put: async (manifest) => {
        await db.manifests.put(manifest);
      },
      delete: (name) => db.manifests.delete(name),
    },
    blobs: {
      get: async <T>(key: string) => (await db.blobs.get(key))?.value as T | undefined,
      put: async (key, value) => {
        await db.blobs.put({ key, value });
      },
      delete: (key) => db.blobs.delete(key),
    },
    close: () => db.close(),
  };
}

/**
 * Removes what the index cache holds for one vault (its database name is the scope): the manifests
 * `isScoped` recognises and the blobs whose key ends in `:<scope>`. Returns the removed manifests'
 * names (their HNSW files are removed by `deleteHnswFiles`).
 */
export async function forgetIndexScope(
  scope: string,
  isScoped: (manifest: Pick<VectorIndexManifest, 'name' | 'modelId'>) => boolean,
  databaseName = INDEX_CACHE_DB,
): Promise<string[]> {
  const db = new IndexCacheDb(databaseName);
  try {
    return await db.transaction('rw', db.manifests, db.blobs, async () => {
      const manifests = (await db.manifests.toArray()).filter(isScoped).map((m) => m.name);
      await db.manifests.bulkDelete(manifests);
      const keys = (await db.blobs.toCollection().primaryKeys()).filter((key) => key.endsWith(`:${scope}`));
      await db.blobs.bulkDelete(keys);
      return manifests;
    });
  } finally {
    db.close();
  }
}

export function dexieManifestStore(databaseName = INDEX_CACHE_DB): ManifestStore {
  return openIndexCache(databaseName).manifests;
}

export function memoryBlobStore(): BlobStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: <T>(key: string) => Promise.resolve(data.get(key) as T | undefined),
    put: (key, value) => Promise.resolve(void data.set(key, value)),
    delete: (key) => Promise.resolve(void data.delete(key)),
  };
}

/** For tests and throwaway indexes. */
export function memoryManifestStore(): ManifestStore & { data: Map<string, VectorIndexManifest> } {
  const data = new Map<string, VectorIndexManifest>();
  return {
    data,
    get: (name) => Promise.resolve(structuredClone(data.get(name))),
    put: (manifest) => Promise.resolve(void data.set(manifest.name, structuredClone(manifest))),
    delete: (name) => Promise.resolve(void data.delete(name)),
  };
}
