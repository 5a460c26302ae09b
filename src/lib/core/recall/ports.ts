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

/** The vault's own statistics of a prompt's terms, and which of them each candidate holds. */
export interface LexicalExplanation {
  /** Documents the keyword index holds. */
  documents: number;
  /** The prompt's distinct index terms (stemmed, stop words out): document frequency and idf. */
  terms: { term: string; df: number; idf: number; near?: string }[];
  /** Per candidate id: indices into `terms` of the terms its keyword document holds. */
  matched: Map<string, number[]>;
}

export interface LexicalSearcher {
  /** The top `k` records for a free-text query, best first. An empty query returns []. */
  search(query: string, k: number): Promise<LexicalHit[]>;
  /**
   * The query's terms with this index's statistics, and which of them each id's document holds
   * (what the model-free relevance judgment reads). Absent: the judgment does not run.
   */
  explain?(query: string, ids: readonly string[]): Promise<LexicalExplanation>;
}

export interface VectorSearcher {
  /** The top `k` records nearest to an L2-normalized query vector, best first. */
  search(vector: Float32Array, k: number): Promise<VectorHit[]>;
  /**
   * `search` for several queries at once, one list each in order (an exact scan reads its rows once
   * for all of them). Optional: without it each query is searched alone.
   */
  searchMany?(vectors: readonly Float32Array[], k: number): Promise<VectorHit[][]>;
  /**
   * Exact cosine similarity of the query to each given record (ids without a vector are left out).
   * The funnel's similarity floor needs a similarity for candidates found by BM25 only; the index
   * holds their vectors, so this is a handful of dot products.
   */
  similarity(vector: Float32Array, ids: readonly string[]): Promise<Map<string, number>>;
}

/** A conversation a structural unit was drawn from (the person can open it from the item). */
export interface StructureSource {
  conversationId: string;
  title: string | null;
  date: number | null;
}

/**
 * A retrievable unit as recall sees it: a note or a chunk, with what scoring and packaging need; or
 * a structural unit of the GLOBAL view (a session summary, a thread map, an entity community,
 * structure-units.ts), found only by GLOBAL and HYBRID prompts and packed as Structural.
 */
export interface CandidateRecord {
  id: string;
  kind: 'note' | 'chunk' | 'structure';
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
  /**
   * Who said the source turns, in order, once each: a named transcript's speaker names, else the
   * role ('user', 'assistant'); empty for notes and resources. The subject check reads it (a turn in
   * the first person is about its speaker).
   */
  speakers?: string[];
  /** A note's category (e.g. 'Decisions', 'Constraints'); absent for chunks. */
  category?: string;
  contentHash: string;
  headingPath: string[];
  /** Tokens of `text` as stored (a hint; budgets are recounted). */
  tokenCount: number;
  pinned: boolean;
  /**
   * A kept note the person pinned in the vault (from Notes or a Recall item): Core in every package
   * it reaches. Set only when true; unlike `pinned`, a pin on one package does not set it.
   */
  notePinned?: boolean;
  /**
   * A structural unit's kind and the conversations it was drawn from; absent for notes and chunks.
   * `summarizedBy`: the model that wrote a community's summary (absent: extractive).
   */
  structure?: { kind: 'summary' | 'thread-map' | 'community'; sources: StructureSource[]; summarizedBy?: string };
}

export interface CandidateStore {
  /**
   * The records with these ids, in any order. Ids that are no longer retrievable (deleted, archived,
   * superseded, staged rows of an unfinished import) are left out: recall never shows them.
   */
  get(ids: readonly string[]): Promise<CandidateRecord[]>;
}

/** The entity graph as recall reads it (the index's EntityGraph in practice). */
export interface GraphSearcher {
  /** Documents where a personalized PageRank walk from the prompt's entities rests, best first. */
  walk(prompt: string, k: number): Promise<{ id: string; score: number }[]>;
  /** Linked entities of a document with their mention counts, and the hub line (P90). */
  hubs(): { p90: number; entitiesOf(id: string): readonly { id: string; mentions: number }[] } | null;
}

/** The extracted units' subject-relation-object triples (services/index/triples.ts), as recall reads them. */
export interface TripleSearcher {
  /**
   * The documents holding the sources of the triples about the prompt's entities that say something
   * it asks about (a unit's source chunk, or the kept note itself), best first, each with its best triple's line.
   */
  about(prompt: string, k: number): Promise<{ id: string; score: number; line: string }[]>;
}

/** The hints' own keyword index (hints.ts, hint-index.ts), as recall reads it. */
export interface HintSearcher {
  /** The best `k` chunks and notes by their best-matching hint (with the query's index terms it holds), best first. */
  search(query: string, k: number): Promise<{ id: string; score: number; terms: readonly string[] }[]>;
}

/**
 * What a prompt with no subject lists (prompt-scope.ts): the vault's notes of some categories, kept and
 * provisional, or the conversations' session summaries (structural units), newest first.
 */
export interface ScopedSource {
  notes(categories: readonly string[], limit: number): Promise<CandidateRecord[]>;
  sessions(limit: number): Promise<CandidateRecord[]>;
}

/** The GLOBAL view's units in their own keyword index (structure-units.ts), as recall reads them. */
export interface StructureSearcher {
  /** The best `k` structural units for the prompt, with their index terms (for the coverage judgment). */
  search(prompt: string, k: number): Promise<{ record: CandidateRecord; score: number; terms: ReadonlySet<string> }[]>;
}
