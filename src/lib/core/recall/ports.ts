/**
 * What the read path needs from the indexes and the store. The index worker implements these over
 * its BM25 index, its HNSW index and Dexie; tests implement them in memory. Every method is async so
 * an implementation may sit behind a worker boundary.
 */
import type { ValidityHorizon } from '../curate/validity';
import type { ConfidenceTier, Tier } from '../records';

/** One lexical hit: a record id and its BM25 score (higher is better), best first. */
export interface LexicalHit {
  id: string;
  score: number;
}

/** One vector hit: a record id and its cosine similarity to the query (-1..1), best first. */
export interface VectorHit {
  id: string;
  similarity: number;
}

export interface LexicalSearcher {
  /** The top `k` records for a free-text query, best first. An empty query returns []. */
  search(query: string, k: number): Promise<LexicalHit[]>;
}

export interface VectorSearcher {
  /** The top `k` records nearest to an L2-normalized query vector, best first. */
  search(vector: Float32Array, k: number): Promise<VectorHit[]>;
  /**
   * Exact cosine similarity of the query to each given record (ids without a vector are left out).
   * The funnel's similarity floor needs a similarity for candidates found by BM25 only; the index
   * holds their vectors, so this is a handful of dot products.
   */
  similarity(vector: Float32Array, ids: readonly string[]): Promise<Map<string, number>>;
}

/** A retrievable unit as recall sees it: a note or a chunk, with what scoring and packaging need. */
export interface CandidateRecord {
  id: string;
  kind: 'note' | 'chunk';
  text: string;
  tier: Tier;
  /** When the content came into being (ms since epoch). */
  createdAt: number;
  /** Reads written back by recall (notes and chunks). */
  accessCount: number;
  lastAccessedAt: number | null;
  /** A note's accepted confidence tier (a promotion); absent: derived (confidence-tier.ts). */
  confidenceTier?: ConfidenceTier;
  /** The horizon a note states ("this week"); past it, the note leaves default retrieval. */
  validity?: ValidityHorizon | null;
  conversationId: string | null;
  /** Title of the source conversation or resource, null when there is none. */
  sourceTitle: string | null;
  /** Date shown with the item (conversation date, else createdAt), ms since epoch. */
  date: number | null;
  /** Source turns behind the item (evaluation maps them to LoCoMo dia_ids). */
  messageIds: string[];
  contentHash: string;
  headingPath: string[];
  /** Tokens of `text` as stored (a hint; budgets are recounted). */
  tokenCount: number;
  pinned: boolean;
}

export interface CandidateStore {
  /**
   * The records with these ids, in any order. Ids that are no longer retrievable (deleted, archived,
   * superseded, staged rows of an unfinished import) are left out: recall never shows them.
   */
  get(ids: readonly string[]): Promise<CandidateRecord[]>;
}
