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
  params: HnswParams;
  capacity: number;
  nextLabel: number;
  /** Labels marked deleted inside the HNSW file (they still occupy slots). */
  deleted: number;
  /** Live entries, three parallel columns. */
  labels: number[];
  recordIds: string[];
  /** First 16 hex digits of each record's content hash. */
  hashes: string[];
  savedAt: number;
}

export interface ManifestStore {
  get(name: string): Promise<VectorIndexManifest | undefined>;
  put(manifest: VectorIndexManifest): Promise<void>;
  delete(name: string): Promise<void>;
}

export const HASH_PREFIX = 16;
export const hashPrefix = (contentHash: string): string => contentHash.slice(0, HASH_PREFIX);

class ManifestDb extends Dexie {
  manifests!: Table<VectorIndexManifest, string>;
  constructor(name: string) {
    super(name);
    this.version(1).stores({ manifests: 'name' });
  }
}

export function dexieManifestStore(databaseName = 'engram-vector-index'): ManifestStore {
  const db = new ManifestDb(databaseName);
  return {
    get: (name) => db.manifests.get(name),
    put: async (manifest) => {
      await db.manifests.put(manifest);
    },
    delete: (name) => db.manifests.delete(name),
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
