/**
 * The vector index of one embedder: a persisted HNSW (src/lib/store/vector-index.ts) kept in step
 * with that embedder's rows in the vectors table. Loading opens the saved index, catches up with
 * rows written after its last save (each row carries its label), verifies count and sampled
 * hashes, and rebuilds from the rows when anything disagrees, saying so in a notice.
 */
import { fail, toVaultError, VaultFailure } from '../../core/errors';
import type { VectorRecord } from '../../core/records';
import { VectorIndex, type VectorEntry } from '../../store/vector-index';
import type { ManifestStore } from '../../store/vector-index-manifest';
import { verifyVectorIndex, type VectorTruth } from '../../store/vector-index-verify';
import type { VectorsRepo } from '../../store/vectors-repo';

const PAGE = 1_000;
const yieldNow = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export interface ModelIndexDeps {
  vectors: VectorsRepo;
  manifests: ManifestStore;
  now: () => number;
  rng: () => number;
  /** Vector index names are per vault database (see Bm25Store). */
  scope: string;
}

export interface OpenReport {
  /** 'saved': loaded and verified; 'caught-up': loaded, then rows newer than the save added. */
  loadedFrom: 'saved' | 'caught-up' | 'rebuilt' | 'empty';
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

export class ModelIndex {
  verifiedAt: number | null = null;
  /** Changed since the last save. */
  changed = false;

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

  /** Opens (catching up and verifying) or rebuilds the index of `embedderId`. */
  static async open(embedderId: string, dims: number, deps: ModelIndexDeps): Promise<{ model: ModelIndex; report: OpenReport }> {
    const options = { name: indexName(deps.scope, embedderId), modelId: embedderId, dims, manifests: deps.manifests, now: deps.now };
    let problem: string | null = null;
    try {
      const saved = await VectorIndex.open(options);
      if (saved) {
        const model = new ModelIndex(embedderId, dims, saved, deps);
        const caughtUp = await model.catchUp();
        model.changed = caughtUp;
        const report = await verifyVectorIndex(saved, model.truth(), { rng: deps.rng, now: deps.now, sample: 32 });
        if (report.ok) {
          model.verifiedAt = report.verifiedAt;
          return { model, report: { loadedFrom: caughtUp ? 'caught-up' : 'saved', problem: null, verifiedAt: report.verifiedAt } };
        }
        problem = report.problems.slice(0, 3).join('; ');
      }
    } catch (thrown) {
      problem = toVaultError(thrown).message;
    }
    const stored = await deps.vectors.count(embedderId);
    const fresh = await VectorIndex.create({ ...options, capacity: Math.max(1024, stored) });
    const model = new ModelIndex(embedderId, dims, fresh, deps);
    if (stored === 0 && problem === null) return { model, report: { loadedFrom: 'empty', problem: null, verifiedAt: null } };
    await model.rebuildFromRows();
    model.verifiedAt = deps.now();
    model.changed = true;
    return { model, report: { loadedFrom: 'rebuilt', problem: problem ?? 'no saved vector index', verifiedAt: model.verifiedAt } };
  }

  /**
   * Applies what the vectors table holds beyond the saved index: rows written after the last save
   * are added under their labels, labels whose row is gone or was replaced are removed.
   */
  private async catchUp(): Promise<boolean> {
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
  async rebuildFromRows(onProgress?: (done: number) => void): Promise<void> {
    const options = { name: this.name, modelId: this.embedderId, dims: this.dims, manifests: this.deps.manifests, now: this.deps.now };
    const fresh = await VectorIndex.create({
      ...options,
      capacity: Math.max(1024, await this.deps.vectors.count(this.embedderId)),
      params: { ef: this.index.params.ef },
    });
    const relabel: VectorRecord[] = [];
    let after = -Infinity;
    let done = 0;
    for (;;) {
      const page = await this.deps.vectors.page(this.embedderId, after, PAGE);
      if (page.length === 0) break;
      for (const row of page) {
        if (row.vector.length !== this.dims) continue; // never a mixed index
        try {
          fresh.restore([entryOf(row)]);
        } catch (thrown) {
          if (!(thrown instanceof VaultFailure) || thrown.code !== 'index/corrupt') throw thrown;
          relabel.push(row);
        }
      }
      after = page[page.length - 1]!.label;
      done += page.length;
      onProgress?.(done);
      await yieldNow();
    }
    if (relabel.length) {
      const labels = fresh.add(relabel.map(entryOf));
      await this.deps.vectors.put(relabel.map((row, i) => ({ ...row, label: labels[i]! })));
    }
    this.index = fresh;
    this.changed = true;
  }

  /** Adds freshly embedded vectors: to the HNSW (labels assigned there) and to the table. */
  async add(items: readonly { recordId: string; contentHash: string; vector: Float32Array }[]): Promise<void> {
    for (const item of items) {
      if (item.vector.length !== this.dims) fail('embed/failed', `${this.embedderId} returned a ${item.vector.length}-dimension vector.`);
    }
    if (items.length === 0) return;
    const labels = this.index.add(items);
    this.changed = true;
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
    for (const id of recordIds) if (this.index.remove(id)) this.changed = true;
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
    await VectorIndex.discard(this.name, this.dims, this.deps.manifests);
    await this.deps.vectors.deleteModel(this.embedderId);
  }
}
