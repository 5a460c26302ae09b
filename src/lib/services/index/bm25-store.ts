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
import { decodeSnapshot, encodeSnapshot, type DocumentsSnapshot } from './documents-snapshot';

interface Bm25Mark {
  dirty: boolean;
  savedAt: number | null;
  documents: number;
  /** Names the save: the saved documents (documents-snapshot.ts) written by it carry the same. */
  token?: string;
}

/**
 * The saved keyword index, and with it the saved documents when the same save wrote them
 * (`documents` null otherwise, with the reason in `documentsWhy`).
 */
export type Bm25Load =
  | { index: Bm25Index; why?: undefined; documents: DocumentsSnapshot | null; documentsWhy: string | null }
  | { index: null; why: string; documents?: undefined; documentsWhy?: undefined };

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

  private get documentsKey(): string {
    return `bm25-documents:${BM25_RECIPE}:${this.scope}`;
  }

  private get markKey(): string {
    return `bm25-mark:${BM25_RECIPE}:${this.scope}`;
  }

  /** The saved index, unless it is missing, damaged, or behind the chunks (dirty). */
  async load(): Promise<Bm25Load> {
    const [mark, bytes, documents] = await Promise.all([
      this.blobs.get<Bm25Mark>(this.markKey),
      this.blobs.get<Uint8Array>(this.bytesKey),
      this.blobs.get<string>(this.documentsKey),
    ]);
    this.dirty = mark?.dirty ?? false;
    if (!bytes) return { index: null, why: 'no saved keyword index' };
    if (mark?.dirty)
      return { index: null, why: 'the saved keyword index is older than the chunks (the last session ended before it was saved)' };
    const decoded = decodeBm25(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes as ArrayBufferLike));
    if (!decoded.ok) return { index: null, why: `the saved keyword index is damaged (${String(decoded.error.detail)})` };
    if (documents === undefined || !mark?.token) return { index: decoded.value, documents: null, documentsWhy: 'no saved documents' };
    const saved = decodeSnapshot(documents, mark.token);
    return saved.ok
      ? { index: decoded.value, documents: saved.value, documentsWhy: null }
      : { index: decoded.value, documents: null, documentsWhy: saved.why };
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

  /**
   * Writes the index and, when given, the documents it was built from (taken at the same moment),
   * then marks both clean under one token.
   */
  async save(index: Bm25Index, documents: DocumentsSnapshot | null = null): Promise<void> {
    const bytes = encodeBm25(index);
    const token = globalThis.crypto.randomUUID();
    const encoded = documents ? encodeSnapshot(documents, token) : null;
    await this.blobs.put(this.bytesKey, bytes);
    if (encoded !== null) await this.blobs.put(this.documentsKey, encoded);
    else await this.blobs.delete(this.documentsKey);
    await this.blobs.put(this.markKey, { dirty: false, savedAt: this.now(), documents: index.size, token } satisfies Bm25Mark);
    this.dirty = false;
  }
}
