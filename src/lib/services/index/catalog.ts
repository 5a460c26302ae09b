/**
 * Every indexed document in memory: its id, the hash its vector must be sealed with, and its place
 * in the embedding order. Built from the chunks and notes tables when the index loads and kept
 * current by every update, so finding what still needs a vector never reads the vectors table.
 */
import { compareEmbedOrder, type EmbedGroup } from '../../core/index/embed-order';
import { hashPrefix } from '../../store/vector-index-manifest';
import type { VectorIndex } from '../../store/vector-index';

export interface DocEntry {
  id: string;
  /** A chunk row (of a message or a resource) or a kept atomic note. */
  kind: 'chunk' | 'note';
  /** SHA-256 of the embedded text: a vector sealed with another hash is stale. */
  hash: string;
  group: EmbedGroup;
  at: number | null;
  /** A chunk's conversation (null: a resource's chunk). Chunks only; the saved catalog keeps it. */
  conversationId?: string | null;
  /** A chunk of a pasted resource or a captured web page. Chunks only. */
  resource?: boolean;
}

/** Where the last load found the chunks' entries: the saved catalog, or the chunks table (and why). */
export type CatalogSource = { from: 'saved' } | { from: 'tables'; why: string } | { from: 'empty' };

export class Catalog {
  private readonly entries = new Map<string, DocEntry>();
  private source: CatalogSource = { from: 'empty' };
  private chunkCount = 0;
  /** Bumped on every change: a running embedding pass knows to look again. */
  version = 0;
  private readonly watchers = new Set<(ids: readonly string[] | null) => void>();

  /** Hears every written document (changed or removed: its id; added, or everything reloaded: null). */
  watch(listener: (ids: readonly string[] | null) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  private tell(ids: readonly string[] | null): void {
    for (const listener of this.watchers) listener(ids);
  }

  get size(): number {
    return this.entries.size;
  }

  get chunks(): number {
    return this.chunkCount;
  }

  get notes(): number {
    return this.entries.size - this.chunkCount;
  }

  get(id: string): DocEntry | undefined {
    return this.entries.get(id);
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  ids(): IterableIterator<string> {
    return this.entries.keys();
  }

  set(entry: DocEntry): void {
    const old = this.entries.get(entry.id);
    if (old?.kind === 'chunk') this.chunkCount--;
    this.entries.set(entry.id, entry);
    if (entry.kind === 'chunk') this.chunkCount++;
    this.version++;
    this.tell(old ? [entry.id] : null);
  }

  delete(id: string): boolean {
    const old = this.entries.get(id);
    if (!old) return false;
    if (old.kind === 'chunk') this.chunkCount--;
    this.entries.delete(id);
    this.version++;
    this.tell([id]);
    return true;
  }

  get loadedFrom(): CatalogSource {
    return this.source;
  }

  /** Holds exactly `entries` from now on (a load or reload read them from `source`). */
  reset(entries: Iterable<DocEntry>, source: CatalogSource = { from: 'empty' }): void {
    this.source = source;
    this.entries.clear();
    this.chunkCount = 0;
    for (const entry of entries) {
      this.entries.set(entry.id, entry);
      if (entry.kind === 'chunk') this.chunkCount++;
    }
    this.version++;
    this.tell(null);
  }

  /** True when the index holds a vector of this document made from its current text. */
  static current(index: VectorIndex, entry: DocEntry): boolean {
    const label = index.labelOf(entry.id);
    return label !== undefined && index.entryOf(label)?.hash === hashPrefix(entry.hash);
  }

  /** Documents without a current vector in `index`, in embedding order. */
  pending(index: VectorIndex): DocEntry[] {
    const out: DocEntry[] = [];
    for (const entry of this.entries.values()) if (!Catalog.current(index, entry)) out.push(entry);
    return out.sort(compareEmbedOrder);
  }

  /** How many documents have a current vector in `index`. */
  covered(index: VectorIndex): number {
    let n = 0;
    for (const entry of this.entries.values()) if (Catalog.current(index, entry)) n++;
    return n;
  }
}
