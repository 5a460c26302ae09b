/**
 * The vector index of one embedder (src/lib/store/vector-index.ts) kept in step with that
 * embedder's rows in the vectors table. Up to INT8_SCAN_UP_TO vectors it is an exact scan over
 * int8 rows, saved whole as a blob (given a blob store; filled from the table when that is missing
 * or another save's); above, a persisted HNSW. Loading a saved index opens it, catches up with rows
 * written after its last save (each row carries its label), verifies count and sampled hashes, and
 * rebuilds from the rows when anything disagrees, saying so in a notice.
 */
import { fail, toVaultError, VaultFailure } from '../../core/errors';
import { FlatVectors } from '../../core/index/exact';
import { dot, dotAt, nonZeroPositions } from '../../core/index/vector-math';
import type { VectorRecord } from '../../core/records';
import { VectorIndex, type HnswParams, type VectorEntry } from '../../store/vector-index';
import type { BlobStore, ManifestStore } from '../../store/vector-index-manifest';
import { verifyVectorIndex, type VectorTruth } from '../../store/vector-index-verify';
import { int8Fits, type VectorStructure } from '../../store/vector-points';
import type { VectorsRepo } from '../../store/vectors-repo';
import { yieldToEventLoop } from '../../core/jobs/yield';

const PAGE = 1_000;

/** What the store's VectorIndex is opened or created with. */
function storeOptions(name: string, modelId: string, dims: number, deps: ModelIndexDeps) {
  return { name, modelId, dims, manifests: deps.manifests, now: deps.now, ...(deps.blobs ? { blobs: deps.blobs } : {}) };
}

export interface ModelIndexDeps {
  vectors: VectorsRepo;
  manifests: ManifestStore;
  /** Where an int8 index saves its rows (without: filled from the vectors table on every open). */
  blobs?: BlobStore;
  now: () => number;
  rng: () => number;
  /** Vector index names are per vault database (see Bm25Store). */
  scope: string;
  /** Parameters of a graph built from scratch (default DEFAULT_HNSW). */
  hnsw?: Partial<HnswParams>;
  /** The structure to hold the vectors (default 'auto': `structureFor`). */
  structure?: VectorStructure | 'auto';
}

/**
 * Vectors up to which the index is an exact int8 scan rather than an HNSW graph (docs/INDEX.md,
 * "Vectors at scale"): the largest size measured at which the scan meets issue 19's three targets
 * on this machine. At 300k: p95 9.27 ms, recall@10 0.989 against float32, 124 MB, built in seconds;
 * at 400k (2026-11-29, quiet): p95 9.23 ms, recall@10 0.985, 165 MB, built in 1.2 s. The graph meets
 * only the latency one (~17 minutes to build at 300k, past 500 MB); in the app it built for over
 * 25 minutes on the heavy archive's 322,707 chunks. On latency alone the graph would win above
 * ~150-200k (index.vectors.crossover_docs); beyond 400k nothing was measured, and the graph serves.
 */
export const INT8_SCAN_UP_TO = 400_000;

/** The structure for `count` vectors of `dims` dimensions. */
export function structureFor(dims: number, count: number, wanted: ModelIndexDeps['structure'] = 'auto'): VectorStructure {
  if (wanted === 'hnsw' || !int8Fits(dims)) return 'hnsw';
  if (wanted === 'int8') return 'int8';
  return count <= INT8_SCAN_UP_TO ? 'int8' : 'hnsw';
}

export interface OpenReport {
  /** 'saved': loaded and verified; 'caught-up': loaded, then rows newer than the save added. */
  loadedFrom: 'saved' | 'caught-up' | 'rebuilt' | 'empty';
  /** What holds the vectors now. */
  structure: VectorStructure;
  /** Set when the saved index could not be trusted (it was rebuilt). */
  problem: string | null;
  verifiedAt: number | null;
}

export function indexName(scope: string, embedderId: string): string {
  return `vec-${scope}-${embedderId}`.replace(/[^A-Za-z0-9._-]/gu, '_');
}

const entryOf = (row: VectorRecord): VectorEntry & { label: number } => ({
  recordId: row.recordId,
  contentHash: row.contentHash,
  vector: row.vector instanceof Float32Array ? row.vector : Float32Array.from(row.vector as ArrayLike<number>),
  label: row.label,
});

/**
 * How the index answers a nearest-neighbour search: 'hnsw', the index's own structure, as the app
 * searches (the int8 scan up to INT8_SCAN_UP_TO vectors, the HNSW graph above; the name predates
 * the scan and stays for the CLI's `--vectors`); an exact float scan over the same stored vectors
 * (the ground truth; `eval locomo --vectors exact`; int8 rows are dequantized); or exact up to
 * AUTO_EXACT_UP_TO vectors and the index's structure above.
 */
export type VectorSearchMode = 'hnsw' | 'exact' | 'auto';

/**
 * Exact search costs n x dims multiply-adds: about 2 ms per query at 5,000 vectors of 384 dims
 * on this machine class, so beyond that HNSW keeps a recall well inside its 50 ms budget.
 */
export const AUTO_EXACT_UP_TO = 5_000;

/** Vectors kept read back (4,096 x 384 dims = 6 MB). */
const POINT_CACHE = 4_096;

export interface ModelHit {
  recordId: string;
  similarity: number;
}

export class ModelIndex {
  verifiedAt: number | null = null;
  /** Changed since the last save. */
  changed = false;
  /** A flat copy of the vectors for exact search, built on first use and dropped on any change. */
  private flat: { vectors: FlatVectors; recordOf: Map<number, string> } | null = null;
  /**
   * Vectors read back out of the HNSW (about 0.1 ms each through WASM): the funnel asks for the same
   * candidates' similarity once per query variant. Keyed by label (a label is never reused for
   * another vector); bounded, cleared when full and when the index is rebuilt.
   */
  private readonly points = new Map<number, Float32Array>();

  private constructor(
    readonly embedderId: string,
    readonly dims: number,
    public index: VectorIndex,
    private readonly deps: ModelIndexDeps,
  ) {}

  get name(): string {
    return indexName(this.deps.scope, this.embedderId);
  }

  truth(): VectorTruth {
    const { vectors } = this.deps;
    return {
      count: () => vectors.count(this.embedderId),
      lookup: async (ids) =>
        new Map((await vectors.get(this.embedderId, ids)).map((r) => [r.recordId, { contentHash: r.contentHash, vector: r.vector }])),
    };
  }

  /**
   * Opens (catching up and verifying) or rebuilds the index of `embedderId`. `fullCatchUp`: compare
   * every row's label with the saved index (after a restore or merge wrote rows under labels of
   * their own), not only the rows labelled after the save.
   */
  static async open(
    embedderId: string,
    dims: number,
    deps: ModelIndexDeps,
    how: { fullCatchUp?: boolean } = {},
  ): Promise<{ model: ModelIndex; report: OpenReport }> {
    const options = storeOptions(indexName(deps.scope, embedderId), embedderId, dims, deps);
    const stored = await deps.vectors.count(embedderId);
    const structure = structureFor(dims, stored, deps.structure);
    let problem: string | null = null;
    let hadSaved = false;
    try {
      const saved = await VectorIndex.open(options);
      hadSaved = saved !== null;
      if (saved && saved.structure === structure) {
        const model = new ModelIndex(embedderId, dims, saved, deps);
        // int8 rows saved without their blob are filled from the table (nothing to catch up with);
        // rows read back whole, and a graph, catch up.
        let caughtUp = false;
        const filled = saved.needsRows;
        if (filled) await model.fillFromRows(saved);
        else caughtUp = await model.catchUp(how.fullCatchUp === true, stored);
        // Rows filled from the table are saved whole at the next save, so the next open reads them back.
        model.changed = caughtUp || (filled && deps.blobs !== undefined);
        // The table's count is the one taken above: filling and catching up only read rows, and
        // every write of this embedder's rows waits for the same lock. At 322,707 rows a count
        // walks the table for 2.3-2.4 s in Chromium, on the database's one queue.
        const truth: VectorTruth = { ...model.truth(), count: () => Promise.resolve(stored) };
        const report = await verifyVectorIndex(saved, truth, { rng: deps.rng, now: deps.now, sample: 32 });
        if (report.ok) {
          model.verifiedAt = report.verifiedAt;
          return {
            model,
            report: { loadedFrom: caughtUp ? 'caught-up' : 'saved', structure, problem: null, verifiedAt: report.verifiedAt },
          };
        }
        problem = report.problems.slice(0, 3).join('; ');
      }
      // A saved index of the other structure (the vault crossed INT8_SCAN_UP_TO, or was saved before
      // the int8 scan existed) is built again from the rows below, which are the truth either way:
      // not a problem, no notice.
    } catch (thrown) {
      problem = toVaultError(thrown).message;
    }
    const fresh = { ...options, structure, capacity: Math.max(1024, stored), ...(deps.hnsw ? { params: deps.hnsw } : {}) };
    if (stored === 0 && problem === null) {
      // Nothing to search yet: hnswlib-wasm (for a graph) loads with the first embedded batch (`add`).
      return {
        model: new ModelIndex(embedderId, dims, VectorIndex.deferred(fresh), deps),
        report: { loadedFrom: 'empty', structure, problem: null, verifiedAt: null },
      };
    }
    const model = new ModelIndex(embedderId, dims, await VectorIndex.create(fresh), deps);
    await model.rebuildFromRows(undefined, structure);
    model.verifiedAt = deps.now();
    model.changed = true;
    const why = problem ?? (hadSaved ? null : structure === 'hnsw' ? 'no saved vector index' : null);
    return { model, report: { loadedFrom: 'rebuilt', structure, problem: why, verifiedAt: model.verifiedAt } };
  }

  /** Fills an int8 index opened from its manifest with every row of this embedder, page by page. */
  private async fillFromRows(index: VectorIndex): Promise<void> {
    index.ensureCapacity(await this.deps.vectors.count(this.embedderId));
    for await (const page of this.deps.vectors.pages(this.embedderId, PAGE)) {
      index.restore(page.filter((row) => row.vector.length === this.dims).map(entryOf));
    }
    index.needsRows = false;
  }

  /**
   * Applies what the vectors table holds beyond the saved index: rows written after the last save
   * are added under their labels, labels whose row is gone or was replaced are removed.
   *
   * Labels only grow, and a vector's row is written under the lock with its index entry, so a row
   * written after the save has a label at or above the saved index's next label. Those rows are
   * read alone (usually none); when the table then holds as many rows as the index, nothing was
   * removed and the index is caught up. Otherwise (a row removed after the save, or `full`) every
   * row's label is compared: one key read of the whole table, which fake-indexeddb takes 30 s for
   * at 20k rows. `stored`: the rows the table holds (counted by `open`, under the same lock as
   * every write).
   */
  private async catchUp(full: boolean, stored: number): Promise<boolean> {
    if (!full) {
      const fresh = await this.deps.vectors.since(this.embedderId, this.index.nextFreeLabel);
      if (fresh.length > 0) this.index.restore(fresh.map(entryOf));
      if (stored === this.index.count) return fresh.length > 0;
    }
    const rows = await this.deps.vectors.labels(this.embedderId);
    let changed = false;
    for (const label of this.index.labels()) {
      const entry = this.index.entryOf(label)!;
      if (rows.get(entry.recordId) !== label) changed = this.index.remove(entry.recordId) || changed;
    }
    const missing = [...rows].filter(([recordId, label]) => this.index.labelOf(recordId) !== label).map(([recordId]) => recordId);
    for (let start = 0; start < missing.length; start += PAGE) {
      const page = await this.deps.vectors.get(this.embedderId, missing.slice(start, start + PAGE));
      this.index.restore(page.map(entryOf));
      changed = true;
    }
    return changed;
  }

  /**
   * Rebuilds the HNSW from this embedder's rows, page by page (yielding between pages so searches
   * are still answered). Rows whose labels collide (vectors merged in from another device's vault
   * file) are given fresh labels, written back to their rows.
   */
  async rebuildFromRows(onProgress?: (done: number) => void, structure?: VectorStructure): Promise<void> {
    const options = storeOptions(this.name, this.embedderId, this.dims, this.deps);
    const stored = await this.deps.vectors.count(this.embedderId);
    const fresh = await VectorIndex.create({
      ...options,
      capacity: Math.max(1024, stored),
      structure: structure ?? structureFor(this.dims, stored, this.deps.structure),
      params: { ...this.deps.hnsw, ef: this.index.params.ef },
    });
    const relabel: VectorRecord[] = [];
    let done = 0;
    for await (const page of this.deps.vectors.pages(this.embedderId, PAGE)) {
      for (const row of page) {
        if (row.vector.length !== this.dims) continue; // never a mixed index
        try {
          fresh.restore([entryOf(row)]);
        } catch (thrown) {
          if (!(thrown instanceof VaultFailure) || thrown.code !== 'index/corrupt') throw thrown;
          relabel.push(row);
        }
      }
      done += page.length;
      onProgress?.(done);
      await yieldToEventLoop();
    }
    if (relabel.length) {
      const labels = fresh.add(relabel.map(entryOf));
      await this.deps.vectors.put(relabel.map((row, i) => ({ ...row, label: labels[i]! })));
    }
    this.index = fresh;
    this.changed = true;
    this.flat = null;
    this.points.clear();
  }

  /** Adds freshly embedded vectors: to the HNSW (labels assigned there) and to the table. */
  async add(items: readonly { recordId: string; contentHash: string; vector: Float32Array }[]): Promise<void> {
    for (const item of items) {
      if (item.vector.length !== this.dims) fail('embed/failed', `${this.embedderId} returned a ${item.vector.length}-dimension vector.`);
    }
    if (items.length === 0) return;
    await this.index.load();
    const labels = this.index.add(items);
    this.changed = true;
    this.flat = null;
    const rows: VectorRecord[] = items.map((item, i) => ({
      recordId: item.recordId,
      modelId: this.embedderId,
      dims: this.dims,
      vector: item.vector,
      contentHash: item.contentHash,
      label: labels[i]!,
    }));
    await this.deps.vectors.put(rows);
  }

  /** Drops records from the HNSW (their rows are removed with their chunks, or by the caller). */
  remove(recordIds: readonly string[]): void {
    let removed = false;
    for (const id of recordIds) removed = this.index.remove(id) || removed;
    if (!removed) return;
    this.changed = true;
    this.flat = null;
  }

  /** The `k` nearest records to a unit query vector, best first. */
  search(query: Float32Array, k: number, mode: VectorSearchMode = 'hnsw'): ModelHit[] {
    if (query.length !== this.dims) {
      fail('index/failed', `A ${query.length}-dimension query cannot search the ${this.dims}-dimension index of ${this.embedderId}.`);
    }
    const exact = mode === 'exact' || (mode === 'auto' && this.index.count <= AUTO_EXACT_UP_TO);
    if (!exact) return this.index.search(query, k).map((hit) => ({ recordId: hit.recordId, similarity: hit.similarity }));
    const flat = this.flatCopy();
    return flat.vectors.search(query, k).map((hit) => ({ recordId: flat.recordOf.get(hit.label)!, similarity: hit.similarity }));
  }

  /** `search` for several queries, one list each (an int8 scan reads its rows once for all). */
  searchMany(queries: readonly Float32Array[], k: number, mode: VectorSearchMode = 'hnsw'): ModelHit[][] {
    const exact = mode === 'exact' || (mode === 'auto' && this.index.count <= AUTO_EXACT_UP_TO);
    if (exact || queries.some((q) => q.length !== this.dims)) return queries.map((q) => this.search(q, k, mode));
    return this.index.searchMany(queries, k).map((hits) => hits.map((hit) => ({ recordId: hit.recordId, similarity: hit.similarity })));
  }

  /** Exact cosine of the query to each record that has a vector here. */
  similarity(query: Float32Array, recordIds: readonly string[]): Map<string, number> {
    const out = new Map<string, number>();
    if (query.length !== this.dims) return out;
    const at = nonZeroPositions(query);
    for (const id of recordIds) {
      const label = this.index.labelOf(id);
      if (label !== undefined) out.set(id, at ? dotAt(query, this.point(label), at) : dot(query, this.point(label)));
    }
    return out;
  }

  private point(label: number): Float32Array {
    let vector = this.points.get(label);
    if (!vector) {
      if (this.points.size >= POINT_CACHE) this.points.clear();
      vector = this.index.vectorOf(label);
      this.points.set(label, vector);
    }
    return vector;
  }

  private flatCopy(): { vectors: FlatVectors; recordOf: Map<number, string> } {
    if (this.flat) return this.flat;
    const labels = this.index.labels();
    const vectors = new FlatVectors(this.dims, Math.max(1, labels.length));
    const recordOf = new Map<number, string>();
    for (const label of labels) {
      vectors.set(label, this.index.vectorOf(label));
      recordOf.set(label, this.index.entryOf(label)!.recordId);
    }
    this.flat = { vectors, recordOf };
    return this.flat;
  }

  /** Saves when anything changed since the last save. */
  async save(): Promise<boolean> {
    if (!this.changed) return false;
    this.changed = false;
    try {
      await this.index.save();
      return true;
    } catch (thrown) {
      this.changed = true;
      throw thrown;
    }
  }

  /** Forgets the saved index and every row of this embedder. */
  async discard(): Promise<void> {
    await VectorIndex.discard(this.name, this.dims, this.deps.manifests, this.deps.blobs);
    await this.deps.vectors.deleteModel(this.embedderId);
  }
}
