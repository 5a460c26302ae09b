import Dexie, { type Table, type Transaction } from 'dexie';
import type {
  CheckpointLogRecord,
  CheckpointRecord,
  ChunkRecord,
  ConversationRecord,
  HistoryRecord,
  IntentRecord,
  ImportRecord,
  JobRecord,
  MessageBlockRecord,
  MessageRecord,
  NoteRecord,
  ProposalRecord,
  SettingRecord,
  StoredCommunitySummary,
  StoredThreadMap,
  StoredTriple,
  TombstoneRecord,
  VectorRecord,
} from '../core/records';
import type { StoredSummary } from '../core/api/extract-api';
import { moveSummariesOutOfSettings } from './migrations/v2-summaries';
import { markStagedMessages } from './migrations/v9-staged-messages';

/**
 * Schema versions, append-only. A shipped entry is never edited: a change is a new entry with a
 * higher version (and an upgrade function when rows must be rewritten). The migration test opens a
 * database created at every earlier version with the current code.
 */
export interface SchemaVersion {
  version: number;
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<void> | void;
}

export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  {
    version: 1,
    stores: {
      conversations: 'id, [source+externalId], contentHash, importId, state, updatedAt, createdAt',
      messages: 'id, conversationId, [conversationId+ordinal], contentHash, importId, state, createdAt',
      notes: 'id, status, tier, category, contentHash, conversationId, createdAt, updatedAt, keptAt, supersededBy, *sourceMessageIds',
      chunks: 'id, parentId, parentType, conversationId, tier, contentHash, *messageIds',
      vectors: '[recordId+modelId], recordId, modelId, [modelId+label], contentHash',
      jobs: 'id, type, status, [status+runAfter], [status+leaseUntil], dedupeKey',
      history: 'id, recordId, [recordId+at], at',
      imports: 'id, startedAt, status',
      settings: 'key',
      tombstones: '[table+id], hlc',
    },
  },
  {
    // Issue 17: session summaries and thread maps get tables of their own (they were settings rows
    // `extract.summary:<conversationId>`); the cleaning sweep's proposals and the checkpoints taken
    // before a sweep is applied, a merge or a restore (a change log of before-images) are stored.
    version: 2,
    stores: {
      // Copied chunks are found by this index (the promotion signal of the candidates they cite).
      chunks: 'id, parentId, parentType, conversationId, tier, contentHash, *messageIds, lastCopiedAt',
      summaries: 'conversationId, at',
      threadMaps: 'id, *sessionIds, at',
      proposals: 'id, sweepId, status, type, [status+type], *noteIds',
      checkpoints: 'id, at, state',
      checkpointLog: '++seq, checkpointId, [checkpointId+ref]',
    },
    upgrade: moveSummariesOutOfSettings,
  },
  {
    // Issue 12 (recall that connects). Version 2 belongs to issue 17; versions need not be contiguous.
    // intents: the person's recent intent classes (the recall prior), device-local, not in the vault file.
    version: 3,
    stores: {
      intents: 'id, at',
    },
  },
  {
    // Issue 19 (heavy archives). Versions 4 and 5 were reserved for issues 13 and 15, which needed none.
    version: 6,
    stores: {
      // Every index is written with every row: a 300k-message import pays for each one. Nothing
      // read messages by contentHash or createdAt, and `conversationId` alone is the prefix of
      // [conversationId+ordinal]. Dropping the three cut the import's IndexedDB CPU by about a
      // fifth (an unrecorded measurement: not in docs/BENCH.md yet).
      messages: 'id, [conversationId+ordinal], importId, state',
      // Progress views count one type's jobs by status (finished since a time, the oldest queued)
      // from the index alone, instead of reading every job of the queue whenever one changes.
      jobs: 'id, type, status, [status+runAfter], [status+leaseUntil], dedupeKey, [type+status+updatedAt]',
    },
  },
  {
    // Issue 12: entity communities summarised by the LLM (core/graph/community-summary.ts), one row
    // per community. Derived and device-local (rewritten from the vault whenever a model is loaded),
    // not in the vault file; a restore or merge clears them (index.rebuild).
    version: 7,
    stores: {
      communitySummaries: 'id, at',
    },
  },
  {
    // Issue 12: the subject-relation-object triples of extracted units (core/graph/triples.ts), one
    // row per triple, found by the entities they name (the entity panel) and by each entity with
    // each of its words (recall). Derived and device-local, not in the vault file; the index rebuild
    // (after a restore or merge) writes them again.
    version: 8,
    stores: {
      triples: 'id, noteId, *entities, *pairs',
    },
  },
  {
    // Issue 19: the messages table's `importId` and `state` indexes go (version 10). Each held every
    // message, keyed by a value all of an import's rows share and then by the message's random id,
    // so each write landed at a random place of two more growing B-trees: 400k message rows take
    // 91.2 s with the three indexes and 56.8 s with [conversationId+ordinal] alone (raw IndexedDB
    // in Chromium, `npm run bench -- --only store.idb_keys`). What they found is found otherwise:
    // a staged message carries `stagedBy` (the sparse index below holds only staged rows), and a
    // staged conversation's messages by [conversationId+ordinal]. This version adds `stagedBy` to
    // the staged messages an unfinished import left, read by the `state` index before it goes.
    version: 9,
    stores: {
      messages: 'id, [conversationId+ordinal], importId, state, stagedBy',
    },
    upgrade: markStagedMessages,
  },
  {
    // The chunks' `parentType`, `tier` and `contentHash` and the vectors' `recordId` and
    // `contentHash` go too: nothing reads chunks by the first three or vectors by their hash, and a
    // record's vectors are a range of the primary key [recordId+modelId] (`vectorsOfRecords`). The
    // index job writes a chunk and a vector per document of the heavy archive (322,707 of each).
    version: 10,
    stores: {
      messages: 'id, [conversationId+ordinal], stagedBy',
      chunks: 'id, parentId, conversationId, *messageIds, lastCopiedAt',
      vectors: '[recordId+modelId], modelId, [modelId+label]',
    },
  },
  {
    // Issue 19: message blocks. An import writes a new conversation's messages as a few rows of up
    // to MESSAGE_BLOCK_SIZE messages each (`store/messages-store.ts`) instead of a row per message:
    // raw IndexedDB in Chromium wrote 400k messages in 86.1 s as rows under version 10's one index
    // and in 16.2 s as blocks under this multi-entry index of their message ids
    // (`npm run bench -- --only store.idb_keys`, 2026-11-30). Rows already stored stay rows (no
    // upgrade); every read goes through messages-store, which reads both. `size` (a block's message
    // count) is indexed so the vault's message count sums 10k index keys: Chromium counted the
    // 400k entries of the multi-entry index in 5.1-5.6 s against 0.11 s for the 10k blocks.
    version: 11,
    stores: {
      messageBlocks: 'id, conversationId, *messageIds, size',
    },
  },
];

export const CURRENT_SCHEMA_VERSION = SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1]!.version;

export const DEFAULT_DB_NAME = 'engram-vault';

export interface DbOptions {
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
}

export class VaultDb extends Dexie {
  conversations!: Table<ConversationRecord, string>;
  messages!: Table<MessageRecord, string>;
  messageBlocks!: Table<MessageBlockRecord, string>;
  notes!: Table<NoteRecord, string>;
  chunks!: Table<ChunkRecord, string>;
  vectors!: Table<VectorRecord, [string, string]>;
  jobs!: Table<JobRecord, string>;
  history!: Table<HistoryRecord, string>;
  imports!: Table<ImportRecord, string>;
  settings!: Table<SettingRecord, string>;
  tombstones!: Table<TombstoneRecord, [string, string]>;
  intents!: Table<IntentRecord, string>;
  communitySummaries!: Table<StoredCommunitySummary, string>;
  triples!: Table<StoredTriple, string>;
  summaries!: Table<StoredSummary, string>;
  threadMaps!: Table<StoredThreadMap, string>;
  proposals!: Table<ProposalRecord, string>;
  checkpoints!: Table<CheckpointRecord, string>;
  checkpointLog!: Table<CheckpointLogRecord, number>;

  constructor(name: string = DEFAULT_DB_NAME, options: DbOptions = {}, upTo: number = CURRENT_SCHEMA_VERSION) {
    // Relaxed durability: a commit is reported before the OS flushes it. Chromium's log is
    // sequential, so a crash loses a suffix of transactions, never a middle one; imports publish
    // in a final transaction and roll back unpublished rows on the next start, so a lost suffix
    // leaves a consistent vault. It cut a 100 MB import's write time by about a third.
    super(name, { chromeTransactionDurability: 'relaxed', ...options });
    for (const entry of SCHEMA_VERSIONS) {
      if (entry.version > upTo) break;
      const version = this.version(entry.version).stores(entry.stores);
      if (entry.upgrade) version.upgrade(entry.upgrade);
    }
  }
}

/** Every table of the current schema (a later version may drop one by setting it to null). */
export const TABLE_NAMES: readonly string[] = (() => {
  const names = new Set<string>();
  for (const entry of SCHEMA_VERSIONS) {
    for (const [name, spec] of Object.entries(entry.stores)) {
      if (spec === null) names.delete(name);
      else names.add(name);
    }
  }
  return [...names];
})();
