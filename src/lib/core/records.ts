/**
 * The shapes of the records the vault stores. Pure types: the store persists them, core computes
 * with them, the vault file carries them.
 */

export type Source = 'chatgpt' | 'claude' | 'gemini' | 'aistudio' | 'grok' | 'deepseek' | 'openwebui' | 'transcript' | 'capture' | 'paste';

export type Role = 'user' | 'assistant' | 'system' | 'tool';
export type Tier = 'engram' | 'resource' | 'chat' | 'web';
export type NoteStatus = 'provisional' | 'kept' | 'archived' | 'superseded' | 'discarded';
/** Rows of an import that has not finished are `staged` and invisible to every view. */
export type RowState = 'staged' | 'visible';

/** Every synced record carries the hybrid-logical-clock stamp of its last change (for merge). */
export interface Stamped {
  hlc: string;
}

export interface ConversationRecord extends Stamped {
  id: string;
  source: Source;
  externalId: string;
  title: string;
  createdAt: number | null;
  updatedAt: number | null;
  /** Hash over the visible thread's message hashes: equal conversations are recognised by it. */
  contentHash: string;
  importId: string;
  state: RowState;
  messageCount: number;
}

export interface BranchInfo {
  /** True when the message lies on the visible thread (root to the current leaf). */
  onVisiblePath: boolean;
  /** External id of the parent node, null for a root. */
  parentExternalId: string | null;
}

export interface MessageRecord extends Stamped {
  id: string;
  conversationId: string;
  externalId: string;
  role: Role;
  /** The speaker's name when the source gives one (a named transcript); absent otherwise. */
  speaker?: string;
  /** Raw text, kept losslessly (secrets redacted at write time). */
  text: string;
  createdAt: number | null;
  ordinal: number;
  branch: BranchInfo;
  hidden: boolean;
  contentHash: string;
  /** Write-time safety flags (e.g. 'injection'); empty when clean. */
  flags: string[];
  importId: string;
  state: RowState;
}

export interface NoteRecord extends Stamped {
  id: string;
  text: string;
  /** A resource's title (a pasted document's first heading or line); atomic notes have none. */
  title?: string;
  category: string;
  status: NoteStatus;
  tier: Tier;
  confidence: number;
  sourceMessageIds: string[];
  conversationId: string | null;
  createdAt: number;
  updatedAt: number;
  keptAt: number | null;
  supersedes: string | null;
  supersededBy: string | null;
  accessCount: number;
  lastAccessedAt: number | null;
  pinned: boolean;
  contentHash: string;
  flags: string[];
  /** What extraction attached to a candidate (extractor, validator repairs, decision-stage proposal). */
  review?: CandidateReview;
}

/** The decision stage's proposal for a candidate, as the Inbox shows it (targets named by id and text). */
export type ReviewProposal =
  | { action: 'add' }
  | { action: 'merge'; targetId: string; targetText: string; reason: 'exact-duplicate' | 'near-duplicate'; similarity: number }
  | { action: 'supersede'; targetId: string; targetText: string; checkedBy: 'rules' | 'rules+llm' | 'llm'; reason: string | null };

export interface CandidateReview {
  extractor: 'llm' | 'rule-based';
  /** `EXTRACTOR_VERSION` of the pipeline that proposed it; absent on candidates from version 1. */
  extractorVersion?: number;
  llmId: string | null;
  /** Unit kind (claim, decision, question, constraint, fact, action-item). */
  kind: string;
  /** Validator repairs, with the reason each was made. */
  repairs: { rule: string; message: string }[];
  proposal: ReviewProposal;
  /** Set when the decision stage's LLM check failed and the rules alone decided. */
  decisionNote: string | null;
}

export type ChunkParent = 'message' | 'note' | 'resource';

export interface ChunkRecord extends Stamped {
  id: string;
  parentType: ChunkParent;
  parentId: string;
  conversationId: string | null;
  /** Messages (source turns) the chunk covers. */
  messageIds: string[];
  text: string;
  headingPath: string[];
  tokenCount: number;
  tier: Tier;
  contentHash: string;
  createdAt: number;
  /** What BM25 and the embedder read (title, date, heading path, speakers around the text). */
  contextText?: string;
  /** SHA-256 of `contextText`: the hash a vector of this chunk is sealed with (a change re-embeds). */
  contextHash?: string;
  /** The parts of the source texts the chunk covers. */
  spans?: { sourceId: string; start: number; end: number }[];
  /** Chunking flags (e.g. 'too-many-bullets'). */
  flags?: string[];
}

/** A vector is sealed with the model that made it and the content it was made from. */
export interface VectorRecord {
  recordId: string;
  modelId: string;
  dims: number;
  vector: Float32Array;
  contentHash: string;
  /** The label of this vector in the persisted HNSW index of `modelId`. */
  label: number;
}

export type JobStatus = 'pending' | 'leased' | 'done' | 'dead';

export interface JobProgressState {
  done: number;
  total: number;
  unit: string;
}

export interface JobRecord {
  id: string;
  type: string;
  payload: unknown;
  status: JobStatus;
  /** Lower runs first. */
  priority: number;
  attempts: number;
  maxAttempts: number;
  /** Earliest time (ms) the job may be leased: backoff pushes it into the future. */
  runAfter: number;
  leasedBy: string | null;
  leasedAt: number | null;
  leaseUntil: number | null;
  /** Jobs with the same key are not queued twice while one is pending or leased. */
  dedupeKey: string | null;
  progress: JobProgressState | null;
  error: { code: string; message: string } | null;
  result: unknown;
  createdAt: number;
  updatedAt: number;
}

export type HistoryActor = 'user' | 'curator' | 'extractor' | 'merge' | 'import' | 'system';

export interface HistoryRecord {
  id: string;
  table: 'notes' | 'conversations' | 'messages' | 'chunks';
  recordId: string;
  at: number;
  actor: HistoryActor;
  action: string;
  before: unknown;
  after: unknown;
  why: string;
}

export type ImportStatus = 'running' | 'done' | 'failed' | 'cancelled';

export interface ImportRecord {
  id: string;
  startedAt: number;
  finishedAt: number | null;
  status: ImportStatus;
  label: string;
  report: unknown;
}

export interface SettingRecord {
  key: string;
  value: unknown;
}

export interface TombstoneRecord {
  table: string;
  id: string;
  hlc: string;
  deletedAt: number;
}
