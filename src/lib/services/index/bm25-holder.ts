/**
 * The keyword index and its saved copy. Invariant: before the index in memory changes, the saved
 * copy is marked dirty (a crash then forces a rebuild rather than loading bytes that miss the
 * change), and it is marked clean only when bytes holding the change are written. Every change goes
 * through `edit`, so no caller can forget the mark.
 */
import type { Bm25Explanation, Bm25Index } from '../../core/index/bm25';
import { Bm25Index as Bm25 } from '../../core/index/bm25';
import type { LexicalHit } from '../../core/recall/ports';
import type { Bm25Store, Bm25Load } from './bm25-store';
import type { DocumentsSnapshot } from './documents-snapshot';

export type Bm25Source = 'saved' | 'rebuilt' | 'empty';

export interface Bm25Info {
  loadedFrom: Bm25Source;
  verifiedAt: number | null;
}

export class Bm25Holder {
  private index: Bm25Index = new Bm25();
  private loaded: Bm25Info = { loadedFrom: 'empty', verifiedAt: null };

  constructor(
    private readonly store: Bm25Store,
    private readonly now: () => number,
    /** What the index was built from (the chunks in the catalog and graph), saved beside it. */
    private readonly documents: () => DocumentsSnapshot | null = () => null,
  ) {}

  get info(): Bm25Info {
    return this.loaded;
  }

  get size(): number {
    return this.index.size;
  }

  get termCount(): number {
    return this.index.termCount;
  }

  get isDirty(): boolean {
    return this.store.isDirty;
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  search(query: string, k: number, accept?: (id: string) => boolean): LexicalHit[] {
    return this.index.search(query, k, accept).map((hit) => ({ id: hit.id, score: hit.score }));
  }

  explain(query: string, ids: readonly string[]): Bm25Explanation {
    return this.index.explain(query, ids);
  }

  /** The saved index, as the store has it (null with the reason when it cannot be used). */
  loadSaved(): Promise<Bm25Load> {
    return this.store.load();
  }

  /** Serves `index` from now on (a verified saved one, or one just rebuilt from the chunks). */
  async replace(index: Bm25Index, loadedFrom: Bm25Source, options: { save: boolean }): Promise<void> {
    this.index = index;
    this.loaded = { loadedFrom, verifiedAt: this.now() };
    if (options.save) await this.store.save(index, this.documents());
  }

  /**
   * Changes the index, after marking the saved copy dirty. `change` may also change the tables the
   * index is built from (the chunks): the mark then covers them too.
   */
  async edit(change: (index: Bm25Index) => void | Promise<void>): Promise<void> {
    await this.store.markDirty();
    await change(this.index);
  }

  /** Writes the index and its documents now (a load found them saved without their documents). */
  async save(): Promise<void> {
    await this.store.save(this.index, this.documents());
  }

  /** Writes the index when it changed since the last save; true when it wrote. */
  async saveIfDirty(): Promise<boolean> {
    if (!this.store.isDirty) return false;
    await this.save();
    return true;
  }
}
