/**
 * The persisted vector index of one embedding model, with a label -> record map (and a
 * content-hash prefix per label) saved alongside and verified on load (vector-index-verify.ts).
 * One index per model id: vectors of two models never share an index.
 *
 * Two structures hold the vectors (vector-points.ts): an HNSW graph (hnswlib-wasm, cosine,
 * incremental add, markDelete and resize, saved through its IDBFS), or int8 rows scanned exactly
 * (no graph to build). int8 rows are saved whole as one blob beside the manifest (given a blob
 * store), under a token the manifest carries; without a blob store, or when the blob is missing or
 * is another save's, the index opens empty with `needsRows` and the caller fills it from the
 * vectors table.
 */
import { fail } from '../core/errors';
import { exclusive, fileSystemSynced, hnswlib, readFileSystem } from './vector-index-runtime';
import type { Int8Rows, Int8Vectors } from '../core/index/int8-vectors';
import { hashPrefix, type BlobStore, type HnswParams, type ManifestStore, type VectorIndexManifest } from './vector-index-manifest';
import { HnswPoints, Int8Points, type VectorPoints, type VectorStructure } from './vector-points';

export type { HnswParams } from './vector-index-manifest';

/**
 * From tests/bench/index-hnsw.bench.ts on 100k lexical vectors of LoCoMo/MemoryBank text (one run,
 * 2-core machine): M 16 / efC 100 reached only 0.912 recall@10 at ef 256; M 32 / efC 200 reaches
 * 0.934 at ef 128, 0.958 at ef 192 (query p50 3.4 ms, p95 4.6 ms) and 0.976 at ef 256 (p95 5.7 ms).
 * ef 192 is the smallest measured breadth at target; the health check measures recall on the real
 * index and raises ef (or rebuilds) whenever it falls below 0.95, so a harder vault gets more.
 */
export const DEFAULT_HNSW: HnswParams = { M: 32, efConstruction: 200, ef: 192, seed: 100 };

export interface VectorEntry {
  recordId: string;
  contentHash: string;
  vector: Float32Array;
}

export interface VectorHit {
  recordId: string;
  label: number;
  /** Cosine similarity (1 - hnswlib's cosine distance). */
  similarity: number;
}

export interface VectorIndexOptions {
  name: string;
  modelId: string;
  dims: number;
  capacity?: number;
  params?: Partial<HnswParams>;
  /** What holds the vectors (default 'hnsw'); 'int8' needs dims a multiple of 16. */
  structure?: VectorStructure;
  manifests: ManifestStore;
  /** Where an int8 index saves its rows (none: they are filled from the vectors table on open). */
  blobs?: BlobStore;
  now?: () => number;
}

export const indexFileName = (name: string): string => `${name}.hnsw`;
/** The blob key of an int8 index's saved rows. */
export const int8RowsKey = (name: string): string => `int8-rows:${name}`;

interface SavedInt8Rows extends Int8Rows {
  token: string;
}

export class VectorIndex {
  private labelOfRecord = new Map<string, number>();
  private recordOfLabel = new Map<number, { recordId: string; hash: string }>();
  /** The vectors; null for an empty HNSW index made by `deferred` until `load()` (hnswlib not loaded yet). */
  private graph: VectorPoints | null;
  private pendingCapacity = 0;
  /** Opened from an int8 manifest and still empty: the caller fills it from the vectors table (`restore`). */
  needsRows = false;

  private constructor(
    hnsw: VectorPoints | null,
    readonly name: string,
    readonly modelId: string,
    readonly dims: number,
    readonly params: HnswParams,
    private readonly manifests: ManifestStore,
    private readonly now: () => number,
    private nextLabel: number,
    private deleted: number,
    private readonly blobs: BlobStore | null = null,
  ) {
    this.graph = hnsw;
  }

  get structure(): VectorStructure {
    return this.graph?.structure ?? 'hnsw';
  }

  /** The rows of an exact int8 scan (null for a graph): the index service fills their column copy in the background. */
  get int8Rows(): Int8Vectors | null {
    return this.graph instanceof Int8Points ? this.graph.rows : null;
  }

  private get hnsw(): VectorPoints {
    if (!this.graph) fail('index/failed', `The vector index ${this.name} is not loaded yet (await load() before adding).`);
    return this.graph;
  }

  /** A new, empty index over `points` (null: an HNSW not created yet), nothing saved. */
  private static empty(points: VectorPoints | null, options: VectorIndexOptions, params: HnswParams): VectorIndex {
    const { name, modelId, dims, manifests } = options;
    return new VectorIndex(points, name, modelId, dims, params, manifests, options.now ?? Date.now, 0, 0, options.blobs ?? null);
  }

  /** An empty index that loads hnswlib-wasm only when `load()` is first awaited (before the first add). */
  static deferred(options: VectorIndexOptions): VectorIndex {
    const capacity = Math.max(16, options.capacity ?? 1024);
    const index = VectorIndex.empty(options.structure === 'int8' ? new Int8Points(options.dims, capacity) : null, options, {
      ...DEFAULT_HNSW,
      ...options.params,
    });
    index.pendingCapacity = capacity;
    return index;
  }

  /** Whether the graph exists (hnswlib loaded); an index made by `deferred` is empty until then. */
  get loaded(): boolean {
    return this.graph !== null;
  }

  /** Creates the graph of a `deferred` index (loading hnswlib-wasm once); nothing to do otherwise. */
  async load(): Promise<void> {
    if (this.graph) return;
    const lib = await hnswlib();
    if (this.graph) return;
    const hnsw = new lib.HierarchicalNSW('cosine', this.dims, '');
    hnsw.initIndex(this.pendingCapacity, this.params.M, this.params.efConstruction, this.params.seed);
    hnsw.setEfSearch(this.params.ef);
    this.graph = new HnswPoints(hnsw);
  }

  static async create(options: VectorIndexOptions): Promise<VectorIndex> {
    const params = { ...DEFAULT_HNSW, ...options.params };
    const capacity = Math.max(16, options.capacity ?? 1024);
    let points: VectorPoints;
    if (options.structure === 'int8') points = new Int8Points(options.dims, capacity);
    else {
      const lib = await hnswlib();
      const hnsw = new lib.HierarchicalNSW('cosine', options.dims, '');
      hnsw.initIndex(capacity, params.M, params.efConstruction, params.seed);
      hnsw.setEfSearch(params.ef);
      points = new HnswPoints(hnsw);
    }
    return VectorIndex.empty(points, options, params);
  }

  /** Reads the saved file and manifest; checks only that they exist and agree with each other. */
  static async open(options: VectorIndexOptions): Promise<VectorIndex | null> {
    const manifest = await options.manifests.get(options.name);
    if (!manifest) return null;
    if (manifest.modelId !== options.modelId || manifest.dims !== options.dims) {
      fail('index/corrupt', 'The saved vector index belongs to another embedding model.', {
        saved: manifest.modelId,
        wanted: options.modelId,
      });
    }
    const fromManifest = (points: VectorPoints, deleted: number) =>
      new VectorIndex(
        points,
        manifest.name,
        manifest.modelId,
        manifest.dims,
        manifest.params,
        options.manifests,
        options.now ?? Date.now,
        manifest.nextLabel,
        deleted,
        options.blobs ?? null,
      );
    if (manifest.structure === 'int8') {
      const points = new Int8Points(manifest.dims, Math.max(16, manifest.capacity));
      const index = fromManifest(points, 0);
      const saved = manifest.rowsToken && options.blobs ? await options.blobs.get<SavedInt8Rows>(int8RowsKey(manifest.name)) : undefined;
      if (saved && saved.token === manifest.rowsToken && saved.labels.length === manifest.labels.length) {
        try {
          points.rows.importRows(saved);
          if (manifest.labels.every((label) => points.rows.has(label))) {
            manifest.labels.forEach((label, i) => index.remember(label, manifest.recordIds[i]!, manifest.hashes[i]!));
            return index;
          }
        } catch {
          // Rows that do not fit the manifest: filled from the vectors table below.
        }
        points.rows.importRows({ dims: manifest.dims, labels: new Int32Array(0), factors: new Float32Array(0), values: new Int8Array(0) });
      }
      index.needsRows = true;
      return index;
    }
    const lib = await hnswlib();
    const hnsw = new lib.HierarchicalNSW('cosine', manifest.dims, '');
    const read = await exclusive(async () => {
      await readFileSystem();
      if (!lib.EmscriptenFileSystemManager.checkFileExists(indexFileName(manifest.name))) return false;
      // readIndex resolves to undefined in 0.8.2 (typed boolean): success shows as an initialized index.
      await hnsw.readIndex(indexFileName(manifest.name), manifest.capacity);
      return hnsw.isIndexInitialized();
    });
    if (!read) fail('index/corrupt', 'The saved vector index file is missing or unreadable.', { name: manifest.name });
    hnsw.setEfSearch(manifest.params.ef);
    const index = fromManifest(new HnswPoints(hnsw), manifest.deleted);
    manifest.labels.forEach((label, i) => index.remember(label, manifest.recordIds[i]!, manifest.hashes[i]!));
    return index;
  }

  /** The label the next added vector gets: every label given before is below it. */
  get nextFreeLabel(): number {
    return this.nextLabel;
  }

  /** Live entries. */
  get count(): number {
    return this.labelOfRecord.size;
  }

  /** Slots in use inside HNSW, deleted ones included (what `capacity` must hold). */
  get slots(): number {
    return this.graph?.slots ?? 0;
  }

  get capacity(): number {
    return this.graph?.capacity ?? this.pendingCapacity;
  }

  get deletedCount(): number {
    return this.deleted;
  }

  labelOf(recordId: string): number | undefined {
    return this.labelOfRecord.get(recordId);
  }

  entryOf(label: number): { recordId: string; hash: string } | undefined {
    return this.recordOfLabel.get(label);
  }

  /** Live labels in insertion order. */
  labels(): number[] {
    return [...this.recordOfLabel.keys()];
  }

  /** The stored (normalized) vector of a label. */
  vectorOf(label: number): Float32Array {
    return this.hnsw.point(label);
  }

  setEf(ef: number): void {
    this.params.ef = ef;
    this.graph?.setEf(ef);
  }

  /** Adds entries (a record already present is replaced: old label deleted, new label added). */
  add(entries: readonly VectorEntry[]): number[] {
    if (entries.length === 0) return [];
    // Before any label is taken: a deferred index that is not loaded refuses the whole batch.
    const graph = this.hnsw;
    this.ensureCapacity(this.slots + entries.length);
    return entries.map((entry) => {
      if (entry.vector.length !== this.dims) {
        fail('index/failed', `A ${entry.vector.length}-dimension vector cannot join a ${this.dims}-dimension index.`, {
          recordId: entry.recordId,
        });
      }
      this.remove(entry.recordId);
      const label = this.nextLabel++;
      graph.add(entry.vector, label);
      this.remember(label, entry.recordId, hashPrefix(entry.contentHash));
      return label;
    });
  }

  /**
   * Re-adds entries under the labels they were given before (from the vectors table: a catch-up
   * after a save that missed the last batches, or a rebuild). A label already naming another
   * record means the saved state is inconsistent: `index/corrupt`, so the caller rebuilds.
   */
  restore(entries: readonly (VectorEntry & { label: number })[]): void {
    this.ensureCapacity(this.slots + entries.length);
    for (const entry of entries) {
      if (entry.vector.length !== this.dims) {
        fail('index/corrupt', `A ${entry.vector.length}-dimension vector cannot join a ${this.dims}-dimension index.`, {
          recordId: entry.recordId,
        });
      }
      const holder = this.recordOfLabel.get(entry.label);
      if (holder && holder.recordId !== entry.recordId) {
        fail('index/corrupt', 'Two records claim the same vector label.', {
          label: entry.label,
          records: [holder.recordId, entry.recordId],
        });
      }
      if (this.labelOfRecord.get(entry.recordId) !== entry.label) this.remove(entry.recordId);
      this.hnsw.add(entry.vector, entry.label);
      this.remember(entry.label, entry.recordId, hashPrefix(entry.contentHash));
      this.nextLabel = Math.max(this.nextLabel, entry.label + 1);
    }
  }

  /** The label the next added vector gets. */
  get labelCursor(): number {
    return this.nextLabel;
  }

  /**
   * Forgets a saved index: hnswlib-wasm cannot delete a file, so the file is overwritten with an
   * empty index, and the manifest is removed.
   */
  static async discard(name: string, dims: number, manifests: ManifestStore, blobs?: BlobStore): Promise<void> {
    if ((await manifests.get(name))?.structure === 'int8') {
      await manifests.delete(name); // no file: the rows are a blob, and live in the vectors table
      await blobs?.delete(int8RowsKey(name));
      return;
    }
    const lib = await hnswlib();
    const empty = new lib.HierarchicalNSW('cosine', dims, '');
    empty.initIndex(1, 4, 8, 1);
    await exclusive(async () => {
      await readFileSystem();
      await empty.writeIndex(indexFileName(name));
      await fileSystemSynced();
    });
    await manifests.delete(name);
  }

  remove(recordId: string): boolean {
    const label = this.labelOfRecord.get(recordId);
    if (label === undefined) return false;
    this.hnsw.markDelete(label);
    this.labelOfRecord.delete(recordId);
    this.recordOfLabel.delete(label);
    this.deleted++;
    return true;
  }

  search(query: Float32Array, k: number): VectorHit[] {
    const n = Math.min(k, this.count);
    if (n <= 0) return [];
    const hits: VectorHit[] = [];
    for (const { label, similarity } of this.hnsw.search(query, n)) {
      const entry = this.recordOfLabel.get(label);
      if (entry) hits.push({ recordId: entry.recordId, label, similarity });
    }
    return hits.sort((a, b) => b.similarity - a.similarity || a.label - b.label);
  }

  /** `search` for several queries, one list each (the int8 scan reads its rows once for all). */
  searchMany(queries: readonly Float32Array[], k: number): VectorHit[][] {
    const n = Math.min(k, this.count);
    if (n <= 0) return queries.map(() => []);
    return this.hnsw.searchMany(queries, n).map((found) => {
      const hits: VectorHit[] = [];
      for (const { label, similarity } of found) {
        const entry = this.recordOfLabel.get(label);
        if (entry) hits.push({ recordId: entry.recordId, label, similarity });
      }
      return hits.sort((a, b) => b.similarity - a.similarity || a.label - b.label);
    });
  }

  /** Grows capacity to hold `needed` slots (doubling, so a stream of adds resizes rarely). */
  ensureCapacity(needed: number): void {
    const capacity = this.capacity;
    if (needed <= capacity) return;
    if (this.graph) this.graph.resize(Math.max(needed, capacity * 2));
    else this.pendingCapacity = Math.max(needed, capacity * 2);
  }

  /**
   * HNSW: writes the index file through IDBFS, waits for the sync, then writes the manifest. int8:
   * writes its rows as one blob under a new token, then the manifest with the token and the label
   * map (without a blob store: the manifest alone, without the label map; the rows are read back from
   * the vectors table). A crash between the two leaves the old manifest, whose token no longer
   * matches: the next open fills from the table.
   */
  async save(): Promise<VectorIndexManifest> {
    await this.load();
    const graph = this.hnsw;
    if (graph instanceof HnswPoints) {
      await exclusive(async () => {
        // The mount is shared by every vault's index: bring this realm's copy up to date before the
        // write syncs all of it back (vector-index-runtime.ts).
        await readFileSystem();
        await graph.graph.writeIndex(indexFileName(this.name));
        await fileSystemSynced();
      });
    }
    let rowsToken: string | undefined;
    let labels: number[];
    if (graph instanceof Int8Points && this.blobs) {
      rowsToken = globalThis.crypto.randomUUID();
      // Taken together, before the write: the rows and the label map describe one moment.
      const rows = graph.rows.exportRows();
      labels = Array.from(rows.labels);
      await this.blobs.put(int8RowsKey(this.name), { ...rows, token: rowsToken } satisfies SavedInt8Rows);
    } else labels = graph.structure === 'int8' ? [] : this.labels();
    const manifest: VectorIndexManifest = {
      name: this.name,
      modelId: this.modelId,
      dims: this.dims,
      structure: graph.structure,
      params: { ...this.params },
      capacity: this.capacity,
      nextLabel: this.nextLabel,
      deleted: this.deleted,
      labels,
      recordIds: labels.map((l) => this.recordOfLabel.get(l)!.recordId),
      hashes: labels.map((l) => this.recordOfLabel.get(l)!.hash),
      savedAt: this.now(),
      ...(rowsToken ? { rowsToken } : {}),
    };
    await this.manifests.put(manifest);
    return manifest;
  }

  /** hnswlib's own view, for verification: slots used and the labels it holds as deleted. */
  internals(): { slots: number; deletedLabels: number[] } {
    return { slots: this.slots, deletedLabels: this.graph?.deletedLabels() ?? [] };
  }

  private remember(label: number, recordId: string, hash: string): void {
    this.labelOfRecord.set(recordId, label);
    this.recordOfLabel.set(label, { recordId, hash });
  }
}
