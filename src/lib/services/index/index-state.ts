/**
 * Everything the index service holds: its dependencies and the in-memory indexes (catalog, BM25,
 * the serving and target vector indexes), the embedders it loaded, and what the status reports
 * (health, notices, a model download). The modules beside this one operate on it: load, updates,
 * embedding, status. No worker globals: the index worker and the CLI both build one.
 */
import { choiceId, type EmbedderChoice } from '../../core/api/embedder';
import type { HealthReport, IndexNotice, ModelDownload } from '../../core/api/index-api';
import { toVaultError, type VaultError } from '../../core/errors';
import { Bm25Index } from '../../core/index/bm25';
import { ChunksRepo } from '../../store/chunks-repo';
import type { Vault } from '../../store/vault';
import type { BlobStore, ManifestStore } from '../../store/vector-index-manifest';
import { VectorsRepo } from '../../store/vectors-repo';
import { Bm25Store } from './bm25-store';
import { Catalog } from './catalog';
import type { EmbedderHost, LoadedEmbedder } from './embedder-host';
import type { ModelLibrary } from '../../models/model-library';
import type { ModelIndex } from './model-index';
import { Mutex } from './mutex';

export interface IndexDeps {
  vault: Vault;
  cache: { manifests: ManifestStore; blobs: BlobStore };
  host: EmbedderHost;
  /** Cached and provided model files (the browser's Cache API); none in Node. */
  library?: ModelLibrary;
  now?: () => number;
  rng?: () => number;
  /** A follower (another tab runs the jobs): serves searches, never writes. */
  readOnly?: boolean;
  /** Documents per embedding batch. */
  batch?: { lexical: number; neural: number };
  /** Least time between two saves of the indexes during long work (ms). */
  saveEveryMs?: number;
  /** Called after the indexes were saved (other tabs reload then). */
  onSaved?: () => void;
}

export const LEXICAL: EmbedderChoice = { kind: 'lexical' };
const MAX_NOTICES = 5;

export function dimsOf(choice: EmbedderChoice): number {
  return choice.kind === 'lexical' ? 384 : choice.spec.dims;
}

export class IndexState {
  readonly vault: Vault;
  readonly chunks: ChunksRepo;
  readonly vectors: VectorsRepo;
  readonly now: () => number;
  readonly rng: () => number;
  readonly scope: string;
  readonly bm25Store: Bm25Store;
  readonly lock = new Mutex();
  catalog = new Catalog();
  bm25 = new Bm25Index();
  bm25Info: { loadedFrom: 'saved' | 'rebuilt' | 'empty'; verifiedAt: number | null } = { loadedFrom: 'empty', verifiedAt: null };
  servingChoice: EmbedderChoice = LEXICAL;
  targetChoice: EmbedderChoice | null = null;
  serving: ModelIndex | null = null;
  target: ModelIndex | null = null;
  health: HealthReport | null = null;
  notices: IndexNotice[] = [];
  download: ModelDownload | null = null;
  lastSave = 0;
  private readonly embedders = new Map<string, Promise<LoadedEmbedder>>();
  private readonly loaded = new Map<string, LoadedEmbedder>();
  readonly embedderErrors = new Map<string, VaultError>();
  private readonly listeners = new Set<() => void>();

  constructor(readonly deps: IndexDeps) {
    this.vault = deps.vault;
    this.chunks = new ChunksRepo(deps.vault.db);
    this.vectors = new VectorsRepo(deps.vault.db);
    this.now = deps.now ?? Date.now;
    this.rng = deps.rng ?? Math.random;
    this.scope = deps.vault.db.name;
    this.bm25Store = new Bm25Store(deps.cache.blobs, this.scope, this.now);
  }

  get readOnly(): boolean {
    return this.deps.readOnly === true;
  }

  get sealer() {
    return { stamp: () => this.vault.clock.stamp(), now: this.now };
  }

  batchSize(choice: EmbedderChoice): number {
    return choice.kind === 'lexical' ? (this.deps.batch?.lexical ?? 64) : (this.deps.batch?.neural ?? 16);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    for (const listener of this.listeners) listener();
  }

  notice(code: VaultError['code'], message: string): void {
    this.notices = [{ at: this.now(), code, message }, ...this.notices].slice(0, MAX_NOTICES);
    this.changed();
  }

  /** The embedder of a choice, loaded once (a download shows as `download` meanwhile). */
  embedderFor(choice: EmbedderChoice): Promise<LoadedEmbedder> {
    const id = choiceId(choice);
    let pending = this.embedders.get(id);
    if (!pending) {
      this.embedderErrors.delete(id);
      pending = this.deps.host
        .load(choice, (download) => {
          this.download = download;
          this.changed();
        })
        .then(
          (embedder) => {
            this.loaded.set(id, embedder);
            if (this.download?.embedderId === id) this.download = null;
            this.changed();
            return embedder;
          },
          (thrown: unknown) => {
            this.embedders.delete(id);
            this.embedderErrors.set(id, toVaultError(thrown, 'embed/unavailable'));
            if (this.download?.embedderId === id) this.download = null;
            this.changed();
            throw thrown;
          },
        );
      this.embedders.set(id, pending);
    }
    return pending;
  }

  /** The embedder if it is loaded already (for the status), without loading it. */
  loadedEmbedder(choice: EmbedderChoice): LoadedEmbedder | null {
    return this.loaded.get(choiceId(choice)) ?? null;
  }

  isLoading(choice: EmbedderChoice): boolean {
    const id = choiceId(choice);
    return this.embedders.has(id) && !this.loaded.has(id);
  }

  async unloadEmbedder(choice: EmbedderChoice): Promise<void> {
    const id = choiceId(choice);
    const embedder = this.loaded.get(id);
    this.embedders.delete(id);
    this.loaded.delete(id);
    await embedder?.dispose?.();
  }

  models(): ModelIndex[] {
    return [this.serving, this.target].filter((m): m is ModelIndex => m !== null);
  }
}
