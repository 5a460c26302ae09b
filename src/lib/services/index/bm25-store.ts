/**
 * The BM25 index's persistence: its bytes (bm25-codec.ts) in the index cache database, and a dirty
 * mark written before the chunks change and cleared when the bytes that include the change are
 * saved. Saves are batched (a 100k-chunk index is tens of MB), so after a crash the mark says the
 * saved bytes are behind the chunks and the index is rebuilt from them (seconds, not minutes).
 */
import { decodeBm25, encodeBm25 } from '../../core/index/bm25-codec';
import type { Bm25Index } from '../../core/index/bm25';
import type { BlobStore } from '../../store/vector-index-manifest';
import { BM25_RECIPE } from './bm25-text';

interface Bm25Mark {
  dirty: boolean;
  savedAt: number | null;
  documents: number;
}

export type Bm25Load = { index: Bm25Index; why?: undefined } | { index: null; why: string };

export class Bm25Store {
  private dirty: boolean | null = null;

  constructor(
    private readonly blobs: BlobStore,
    /** Keys are per vault database, so two vaults in one origin (tests, the CLI) never share. */
    private readonly scope: string,
    private readonly now: () => number,
  ) {}

  private get bytesKey(): string {
    return `bm25:${BM25_RECIPE}:${this.scope}`;
  }

  private get markKey(): string {
    return `bm25-mark:${BM25_RECIPE}:${this.scope}`;
  }

  /** The saved index, unless it is missing, damaged, or behind the chunks (dirty). */
  async load(): Promise<Bm25Load> {
    const [mark, bytes] = await Promise.all([this.blobs.get<Bm25Mark>(this.markKey), this.blobs.get<Uint8Array>(this.bytesKey)]);
    this.dirty = mark?.dirty ?? false;
    if (!bytes) return { index: null, why: 'no saved keyword index' };
    if (mark?.dirty)
      return { index: null, why: 'the saved keyword index is older than the chunks (the last session ended before it was saved)' };
    const decoded = decodeBm25(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes as ArrayBufferLike));
    if (!decoded.ok) return { index: null, why: `the saved keyword index is damaged (${String(decoded.error.detail)})` };
    return { index: decoded.value };
  }

  /** Call before changing chunks: a crash before the next save then forces a rebuild. */
  async markDirty(): Promise<void> {
    if (this.dirty === true) return;
    this.dirty = true;
    await this.blobs.put(this.markKey, { dirty: true, savedAt: null, documents: -1 } satisfies Bm25Mark);
  }

  get isDirty(): boolean {
    return this.dirty === true;
  }

  async save(index: Bm25Index): Promise<void> {
    const bytes = encodeBm25(index);
    await this.blobs.put(this.bytesKey, bytes);
    await this.blobs.put(this.markKey, { dirty: false, savedAt: this.now(), documents: index.size } satisfies Bm25Mark);
    this.dirty = false;
  }
}
