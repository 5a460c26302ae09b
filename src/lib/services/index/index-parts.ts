/**
 * What the index service is made of: its dependencies and a handful of small objects, each owning
 * one piece of state with its own invariants (the document catalog, the keyword index and its saved
 * copy, the loaded embedders, the serving and target vector indexes, the health record, the
 * notices). Nothing here is a loose mutable field: a module that changes the index calls a method
 * of the part it changes. No worker globals: the index worker and the CLI both build one.
 */
import type { EmbedderChoice } from '../../core/api/embedder';
import type { ModelLibrary } from '../../models/model-library';
import { ChunksRepo } from '../../store/chunks-repo';
import type { Vault } from '../../store/vault';
import type { BlobStore, HnswParams, ManifestStore } from '../../store/vector-index-manifest';
import type { VectorStructure } from '../../store/vector-points';
import { VectorsRepo } from '../../store/vectors-repo';
import { EntityGraph } from '../../core/graph/entity-graph';
import { Bm25Holder } from './bm25-holder';
import { Bm25Store } from './bm25-store';
import { Catalog } from './catalog';
import { takeSnapshot } from './documents-snapshot';
import { ChangeFeed } from './change-feed';
import type { EmbedderHost } from './embedder-host';
import { EmbedderPool } from './embedder-pool';
import { HealthRecord } from './health-record';
import { Mutex } from './mutex';
import { Notices } from './notices';
import { VectorIndexes } from './vector-indexes';

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
  /** HNSW parameters of indexes built from now on (default DEFAULT_HNSW; the benchmark builds a lighter graph). */
  hnsw?: Partial<HnswParams>;
  /** What holds the vectors (default 'auto': an int8 scan up to INT8_SCAN_UP_TO vectors, HNSW above). */
  vectorStructure?: VectorStructure | 'auto';
}

/**
 * Documents per batch of the lexical embedder: each batch reads its chunks and writes its vectors in
 * a transaction of its own, so a small batch waits on the database more than it computes.
 */
const LEXICAL_BATCH = 256;

/**
 * A save during long work writes the keyword index, the saved documents and the vector rows whole,
 * so its cost grows with the vault: at most one part in this many of a job's time goes to saves
 * (the next save waits this many times as long as the last one took, or `saveEveryMs` if longer).
 */
export const SAVE_SHARE = 10;

export function dimsOf(choice: EmbedderChoice): number {
  return choice.kind === 'lexical' ? 384 : choice.spec.dims;
}

export class IndexParts {
  readonly vault: Vault;
  readonly chunks: ChunksRepo;
  readonly vectors: VectorsRepo;
  readonly now: () => number;
  readonly rng: () => number;
  /** Names of saved indexes are per vault database, so two vaults in one origin never share. */
  readonly scope: string;
  /** One writer at a time: updates, embedded batches, saves and switches never interleave. */
  readonly lock = new Mutex();
  readonly feed = new ChangeFeed();
  readonly notices: Notices;
  readonly catalog = new Catalog();
  readonly bm25: Bm25Holder;
  /** The entity graph: mentions and co-occurrence, kept with the chunks (entity-links.ts). */
  readonly graph = new EntityGraph();
  readonly embedders: EmbedderPool;
  readonly indexes: VectorIndexes;
  readonly health: HealthRecord;
  private lastSave = 0;
  private lastSaveTook = 0;

  constructor(readonly deps: IndexDeps) {
    this.vault = deps.vault;
    this.chunks = new ChunksRepo(deps.vault.db);
    this.vectors = new VectorsRepo(deps.vault.db);
    this.now = deps.now ?? Date.now;
    this.rng = deps.rng ?? Math.random;
    this.scope = deps.vault.db.name;
    this.notices = new Notices(this.feed, this.now);
    this.bm25 = new Bm25Holder(new Bm25Store(deps.cache.blobs, this.scope, this.now), this.now, () =>
      takeSnapshot(this.catalog, this.graph),
    );
    this.embedders = new EmbedderPool(deps.host, this.feed);
    this.indexes = new VectorIndexes(deps.vault.settings);
    this.health = new HealthRecord(deps.cache.blobs, this.scope, this.feed);
  }

  get readOnly(): boolean {
    return this.deps.readOnly === true;
  }

  get sealer() {
    return { stamp: () => this.vault.clock.stamp(), now: this.now };
  }

  batchSize(choice: EmbedderChoice): number {
    return choice.kind === 'lexical' ? (this.deps.batch?.lexical ?? LEXICAL_BATCH) : (this.deps.batch?.neural ?? 16);
  }

  /**
   * Whether a save is due during long work: `saveEveryMs` after the last one ended, and no sooner
   * than (SAVE_SHARE - 1) times as long as that save took, so saves stay within 1/SAVE_SHARE of the time.
   */
  saveDue(): boolean {
    const wait = Math.max(this.deps.saveEveryMs ?? 60_000, (SAVE_SHARE - 1) * this.lastSaveTook);
    return this.now() - this.lastSave >= wait;
  }

  /** Records a save that ended now and took `tookMs`. */
  markSaved(tookMs = 0): void {
    this.lastSave = this.now();
    this.lastSaveTook = tookMs;
  }
}
