/**
 * The shapes of the records the vault stores. Pure types: the store persists them, core computes
 * with them, the vault file carries them.
 */
import type { Triple } from './graph/triple';

/** Where a conversation came from (what the Source filter offers). */
export const SOURCES = [
  'chatgpt',
  'claude',
  'gemini',
  'aistudio',
  'grok',
  'deepseek',
  'openwebui',
  'transcript',
  'capture',
  'paste',
] as const;
export type Source = (typeof SOURCES)[number];

export type Role = 'user' | 'assistant' | 'system' | 'tool';
export type Tier = 'engram' | 'resource' | 'chat' | 'web';
export type NoteStatus = 'provisional' | 'kept' | 'archived' | 'superseded' | 'discarded';
/**
 * How sure the vault is that a memory still matters, which sets how fast it fades from ranking
 * (core/recall/confidence-tier.ts): Core never fades (a pin), Hot slowly (promoted on the person's
 * own signals), Warm (kept notes, documents), Cold (what was said in a chat, web pages).
 */
export type ConfidenceTier = 'core' | 'hot' | 'warm' | 'cold';
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
  /**
   * The stage key of the import that staged it, on a `staged` message only (a new message of a
   * conversation the vault already holds, until the import publishes): the sparse index that finds
   * such rows holds only them, so a visible message costs no index entry but its
   * [conversationId+ordinal].
   */
  stagedBy?: string;
}

/**
 * Several messages of one conversation stored as one row (issue 19: the row count, not the bytes,
 * is what a large import waits on). Device-local storage, not a record of the vault file: the file
 * carries the messages, one record each. `messageIds` lists the ids of `messages`, in order.
 */
export interface MessageBlockRecord {
  id: string;
  conversationId: string;
  messageIds: string[];
  messages: MessageRecord[];
  /** How many messages it holds (indexed: the vault's message count sums these keys). */
  size: number;
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
  /** Packages holding this note that the person copied (a read that went into a prompt). */
  copyCount?: number;
  lastCopiedAt?: number | null;
  pinned: boolean;
  /** Set by an accepted promotion; absent: derived (pinned core, else warm). */
  confidenceTier?: ConfidenceTier;
  contentHash: string;
  flags: string[];
  /** What extraction attached to a candidate (extractor, validator repairs, decision-stage proposal). */
  review?: CandidateReview;
  /**
   * Questions the unit answers, written by the language model at extraction (core/recall/llm-hints.ts);
   * absent: the hint index makes rule hints (core/recall/hints.ts).
   */
  hints?: string[];
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
  /**
   * Each covered message's speaker, or its role when it has none, once each in message order: what
   * recall credits a candidate to. Absent on chunks stored before it; recall then reads the messages
   * (a message block of up to 64 for each, since schema 11).
   */
  speakers?: string[];
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
  /** Reads written back by recall (a re-chunk keeps them, like notes' access counts). */
  accessCount?: number;
  lastAccessedAt?: number | null;
  /** Packages holding this chunk that the person copied. */
  copyCount?: number;
  lastCopiedAt?: number | null;
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
  /** A stamp, on rows a merge must order by time (a device's `vault.seen:` line). */
  hlc?: string;
}

export interface TombstoneRecord {
  table: string;
  id: string;
  hlc: string;
  deletedAt: number;
}

/** One recall's intent class, kept for the personalization prior (device-local, pruned after 90 days). */
export interface IntentRecord {
  id: string;
  intent: string;
  at: number;
}

/**
 * An entity community's summary written by the LLM (core/graph/community-summary.ts): derived,
 * device-local. It applies while the community's `signature` (its members and the documents the
 * model read) is the same; otherwise the extractive summary serves.
 */
export interface StoredCommunitySummary {
  /** The community's id (`community:<key>`). */
  id: string;
  signature: string;
  text: string;
  llmId: string;
  at: number;
}

/**
 * A subject-relation-object triple of an extracted unit (core/graph/triples.ts), one row per triple.
 * Derived and device-local like the community summaries: not in the vault file, written again by a
 * restore or merge (the index rebuild) and whenever its note changes; `noteHash` and `recipe` say
 * which text and which extractor wrote it.
 */
export interface StoredTriple extends Triple {
  /** `<noteId>#<n>`. */
  id: string;
  noteId: string;
  conversationId: string | null;
  /** The message the unit was extracted from (its first source); null for a note of its own. */
  messageId: string | null;
  noteHash: string;
  recipe: string;
  /** Each entity with each term ("caroline\u0000go"): the index recall finds a triple by. */
  pairs: string[];
}

/** What a cleaning-sweep proposal does (the Notes screen groups and words them by type). */
export type ProposalType = 'collapse-duplicates' | 'supersede' | 'promote' | 'archive' | 'prune';
export type ProposalStatus = 'pending' | 'applied' | 'dismissed';

/** One note change a proposal would make: the note before and after (null: created or deleted). */
export interface ProposedChange {
  recordId: string;
  action: string;
  why: string;
  before: NoteRecord | null;
  after: NoteRecord | null;
}

/**
 * A proposal of the cleaning sweep, stored until the person accepts or dismisses it. Device-local
 * like jobs (another device runs its own sweep), never in the vault file.
 */
export interface ProposalRecord {
  id: string;
  sweepId: string;
  createdAt: number;
  status: ProposalStatus;
  type: ProposalType;
  /** The notes it changes (the first is the one it is about: the canonical, the newer, the note). */
  noteIds: string[];
  /** Why, in the person's words: shown with the proposal. */
  reasons: string[];
  /** A deletion: applied only after the person confirmed it. */
  needsConfirmation: boolean;
  changes: ProposedChange[];
  /** Identity across sweeps (type and notes): a dismissed proposal is not made again. */
  key: string;
  decidedAt: number | null;
  /** History entries of the applied changes (each can be undone from the note's history). */
  historyIds: string[];
  checkpointId: string | null;
}

/** A thread map as stored (computed by the sweep over every session on one subject). */
export interface StoredThreadMap {
  id: string;
  subject: string[];
  sessionIds: string[];
  arc: {
    stage: 'proposed' | 'changed' | 'decided' | 'left-open';
    text: string;
    sessionId: string;
    date: number | null;
    sourceMessageIds: string[];
    replaces: { text: string; sessionId: string; date: number | null } | null;
  }[];
  at: number;
}

export type CheckpointReason = 'sweep' | 'merge' | 'restore' | 'rollback';

/**
 * A point the vault can be rolled back to: taken before a sweep's proposals are applied, a vault
 * file is merged or restored (and before a roll-back). Its log holds the before-image of every row
 * those operations changed, not a copy of the vault. Device-local.
 */
export interface CheckpointRecord {
  id: string;
  at: number;
  reason: CheckpointReason;
  label: string;
  /** Operations that add to an open checkpoint find it by key (one per sweep). */
  key: string | null;
  /** Rows logged. */
  entries: number;
  state: 'active' | 'rolled-back';
  rolledBackAt: number | null;
}

export interface CheckpointLogRecord {
  seq?: number;
  checkpointId: string;
  /** JSON of [table, primary key]: one before-image per row and checkpoint. */
  ref: string;
  table: string;
  key: string | [string, string];
  /** The row before the operation; null when the operation created it. */
  before: unknown;
}
