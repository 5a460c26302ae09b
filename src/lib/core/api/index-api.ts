/**
 * The index worker (workers/index.worker.ts): chunks, the BM25 index, the vector index of the
 * serving embedder, the background jobs that keep them current, and the search operations the
 * read path needs (src/lib/core/recall/ports.ts). The main thread reaches it through comlink
 * (src/lib/client/indexer.svelte.ts); recall and extraction call the same API.
 */
import type { BreakerStatus } from '../breaker/circuit-breaker';
import type { Result } from '../errors';
import type { VaultError } from '../errors';
import type { EmbedderChoice, EmbeddingModelSpec } from './embedder';
import type { RerankerChoice, RerankerEntry, RerankerState } from './reranker';
import type { LlmInfo } from './llm-port';
import type { JobProgress, JobSpec } from './jobs';
import type { CandidateRecord } from '../recall/ports';
import type { RecallRequest, RecallResponse } from './recall-api';
import type { ConversationSearchRequest, ConversationSearchResult } from './conversation-search';

export const INDEX_JOBS = {
  /** Re-chunk and re-index the named conversations and notes (queued by the importer). */
  update: 'index.update',
  /** Embed every document lacking a current vector, for the serving then the target embedder. */
  embed: 'index.embed',
  /** Rebuild everything from the vault (after a vault-file restore or merge). */
  rebuild: 'index.rebuild',
  /** Write every extracted unit's triples again where an older recipe wrote them (queued at start). */
  triples: 'index.triples',
} as const;

export interface IndexUpdatePayload {
  conversationIds?: string[];
  /** Resource notes (pasted documents) and kept atomic notes alike. */
  noteIds?: string[];
  /** As `runImport`'s onPublished names them; treated as note ids. */
  resourceIds?: string[];
  /** Cursor: how many of the ids above are done. */
  done?: number;
}

export interface IndexRebuildPayload {
  /** Cursor: the last conversation id re-chunked. */
  afterId?: string | null;
  phase?: 'conversations' | 'notes' | 'finish';
  done?: number;
}

/** The job that re-indexes what an import published (idempotent: ids are re-read at run time). */
export function indexUpdateJob(ids: {
  conversationIds?: readonly string[];
  resourceIds?: readonly string[];
  noteIds?: readonly string[];
}): JobSpec {
  const payload: IndexUpdatePayload = {
    conversationIds: [...(ids.conversationIds ?? [])],
    noteIds: [...(ids.noteIds ?? []), ...(ids.resourceIds ?? [])],
  };
  return { type: INDEX_JOBS.update, payload, priority: 10, maxAttempts: 10 };
}

export function indexEmbedJob(): JobSpec {
  return { type: INDEX_JOBS.embed, payload: {}, priority: 50, maxAttempts: 20, dedupeKey: INDEX_JOBS.embed };
}

/** Queue this after a vault file was restored or merged: the index is rebuilt from the records. */
export function indexRebuildJob(): JobSpec {
  return { type: INDEX_JOBS.rebuild, payload: {}, priority: 5, maxAttempts: 10, dedupeKey: INDEX_JOBS.rebuild };
}

/** Queued at start when the stored triples were written by another recipe (services/index/triples.ts). */
export function indexTriplesJob(): JobSpec {
  return { type: INDEX_JOBS.triples, payload: {}, priority: 60, maxAttempts: 5, dedupeKey: INDEX_JOBS.triples };
}

/**
 * Summarise the vault's entity communities by the LLM (core/graph/community-summary.ts): run by the
 * index worker's leader while a model is loaded, queued when one is handed over and when the
 * structural index is rebuilt. Not index work (the index status does not count it): without it the
 * extractive summaries serve.
 */
export const COMMUNITY_SUMMARY_JOB = 'summarize.communities';

export function communitySummaryJob(): JobSpec {
  return { type: COMMUNITY_SUMMARY_JOB, payload: {}, priority: 80, maxAttempts: 3, dedupeKey: COMMUNITY_SUMMARY_JOB };
}

export interface VectorIndexStatus {
  embedderId: string;
  kind: 'lexical' | 'neural';
  dims: number;
  /** Documents with a current vector in this index. */
  count: number;
  /** Documents the vault holds (what full coverage means). */
  total: number;
  /** What holds the vectors: an HNSW graph searched with breadth `ef`, or an exact int8 scan (ef 0). */
  structure: 'hnsw' | 'int8';
  ef: number;
  verifiedAt: number | null;
}

export interface HealthReport {
  checkedAt: number;
  embedderId: string;
  /** Mean recall@10 of the index's search (HNSW, or the int8 scan) against exact float search on sampled queries. */
  recallAt10: number;
  queries: number;
  vectors: number;
  /** What was measured; reports saved before the int8 scan existed have none (HNSW). */
  structure?: 'hnsw' | 'int8';
  ef: number;
  /** ok: at target; tuned: ef raised to reach it; rebuilt: rebuilt to reach it; low: still below. */
  verdict: 'ok' | 'tuned' | 'rebuilt' | 'low' | 'empty';
}

export interface IndexNotice {
  at: number;
  code: VaultError['code'];
  message: string;
}

export interface ModelDownload {
  embedderId: string;
  file: string | null;
  loaded: number;
  total: number;
  /** 0-1 over every file of the model. */
  fraction: number;
}

export interface EmbedderState {
  id: string;
  kind: 'lexical' | 'neural';
  state: 'ready' | 'loading' | 'unavailable';
  device: string | null;
  /** What the settings screen says about it. */
  label: string;
  error: VaultError | null;
}

/** The index jobs of the queue, as the status shows them. */
export interface IndexWork {
  paused: boolean;
  running: JobProgress | null;
  pending: number;
  /** A waiting index job whose last attempt failed: its error and when it is tried again. */
  failing?: { error: VaultError; retryAt: number } | null;
  /** The queue could not be read (say so, rather than "up to date"). */
  unread?: VaultError | null;
}

export interface IndexStatus {
  at: number;
  /** leader: runs the index jobs; follower: another tab does, this one serves searches from saved state. */
  role: 'starting' | 'leader' | 'follower' | 'failed';
  error: VaultError | null;
  documents: { chunks: number; notes: number; total: number };
  bm25: { documents: number; terms: number; loadedFrom: 'saved' | 'rebuilt' | 'empty'; verifiedAt: number | null };
  /** The vector index answering searches: one embedder, never mixed. */
  serving: VectorIndexStatus;
  /** A vector index being built in the background for another embedder (it serves once complete). */
  target: VectorIndexStatus | null;
  /** How much of the vault a neural embedder's vectors cover (serving, else the one being built). */
  neuralCoverage: { embedderId: string | null; covered: number; total: number };
  embedder: EmbedderState;
  download: ModelDownload | null;
  health: HealthReport | null;
  notices: IndexNotice[];
  work: IndexWork;
  /** Recall's cross-encoder on this device (null: none chosen). */
  reranker?: RerankerState | null;
  /** Its download, while it loads for the first time. */
  rerankerDownload?: ModelDownload | null;
  /** Model stages whose circuit breaker is open or probing (recall and extraction): bypassed until `retryAt`. */
  breakers?: BreakerStatus[];
}

export interface ModelEntry {
  embedderId: string;
  choice: EmbedderChoice;
  label: string;
  /** Files in the browser's model cache. */
  cached: boolean;
  bytes: number | null;
  files: number;
  serving: boolean;
  target: boolean;
}

/** One file of a model folder the person provided: its path inside the folder, and its bytes. */
export interface ModelFileInput {
  path: string;
  blob: Blob;
}

export interface IndexReady {
  workerId: string;
  role: IndexStatus['role'];
}

/** What the entity graph links to one entity (IndexApi.entityLinks). */
export interface EntityLinks {
  entity: { id: string; name: string; kind: 'person' | 'name' | 'title'; mentions: number };
  items: CandidateRecord[];
  neighbours: { id: string; name: string; weight: number }[];
  /** What the extracted units say about it (their triples, core/graph/triples.ts), the ones it is the subject of first. */
  facts: { noteId: string; subject: string; relation: string; object: string; negated: boolean }[];
}

/** An entity the vault names often (IndexApi.topEntities): in how many conversations, in how many documents. */
export interface TopEntity {
  id: string;
  name: string;
  kind: 'person' | 'name' | 'title';
  conversations: number;
  mentions: number;
}

export interface IndexApi {
  ping(): Promise<'pong'>;
  /** Resolves when the indexes are loaded (verified or rebuilt). */
  ready(): Promise<IndexReady>;
  status(): Promise<IndexStatus>;
  /** `listener` is a comlink proxy; it receives the status whenever it changes (throttled). */
  subscribe(listener: (status: IndexStatus) => void): Promise<void>;

  /**
   * The whole read path and its package (src/lib/core/api/recall-api.ts), with the model lent by
   * `setLlm` if any (without one the gate fails open and says so). A newer request aborts an older
   * one, which answers `stale`.
   */
  recall(request: RecallRequest): Promise<RecallResponse>;

  /**
   * Everything the vault links to an entity (the entity graph's mentions): the entity, the
   * retrievable items that mention it (chunks and notes, at most `limit`) and the entities named
   * with it most often. Null when the graph does not know the name.
   */
  entityLinks(name: string, limit?: number): Promise<EntityLinks | null>;

  /** The entities the vault names in the most conversations (the Overview's list), at most `limit`. */
  topEntities(limit?: number): Promise<TopEntity[]>;

  /**
   * The Conversations screen's full-text search (core/api/conversation-search.ts): the keyword
   * index over visible threads, grouped by conversation, filtered and sorted, with snippets and
   * the offsets of the matched words.
   */
  searchConversations(request: ConversationSearchRequest): Promise<ConversationSearchResult>;

  /**
   * A read tool of an agent in the page (WebMCP: recall, search, expand, list_decisions;
   * core/api/agent-tools.ts), answered from this worker's vault, which the page calls `vaultName`.
   * The output, or the reason in the one error shape. `remember` is not answered here: it needs
   * the person's confirmation, and the vault worker writes it.
   */
  agentTool(name: string, args: unknown, vaultName: string): Promise<Result<unknown>>;

  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Measures recall@10 of HNSW against exact search now; tunes ef or rebuilds below 0.95. */
  checkHealth(): Promise<HealthReport | null>;
  /** Queues a rebuild of every index from the vault. */
  reindex(): Promise<string>;

  /** Embedders the vault knows, with their cache state. */
  models(): Promise<ModelEntry[]>;
  /** Builds this embedder's index in the background; it serves once complete. */
  useEmbedder(choice: EmbedderChoice): Promise<void>;
  /** Removes a model's cached files (the lexical embedder takes over if it was serving). */
  deleteModel(embedderId: string): Promise<void>;
  /** Stores a model folder's files (or one ZIP of an ONNX export) in the model cache for offline use. */
  importModelFiles(files: ModelFileInput[], overrides?: Partial<EmbeddingModelSpec>): Promise<ModelEntry>;

  /** Rerankers this device can use for recall's second stage, with their cache state. */
  rerankers(): Promise<RerankerEntry[]>;
  /** Uses this reranker from now on (null: none); resolves when it is loaded or failed to load. */
  useReranker(choice: RerankerChoice | null): Promise<void>;
  /** Removes a reranker's cached files (recall goes on without one if it was in use). */
  deleteReranker(rerankerId: string): Promise<void>;
  /** Stores a cross-encoder folder's files (or one ZIP) in the model cache for offline use. */
  importRerankerFiles(files: ModelFileInput[]): Promise<RerankerEntry>;

  /**
   * Lends a language model to this worker (recall's decomposition and fit-gate, the extraction
   * job): `port` is a MessagePort serving `LlmPort` (core/api/llm-port.ts), transferred. Null takes
   * it back: recall's stages and extraction fall back to their model-free paths.
   */
  setLlm(info: LlmInfo | null, port: MessagePort | null): Promise<void>;
}
