import type { ChunkRecord, ConversationRecord, JobRecord, MessageRecord, NoteRecord } from '../../src/lib/core/records';

/** Builders for records, with sensible defaults a test overrides. */

export function conversation(over: Partial<ConversationRecord> = {}): ConversationRecord {
  return {
    id: 'conv-1',
    source: 'chatgpt',
    externalId: 'ext-1',
    title: 'A conversation',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_100_000,
    contentHash: 'c'.repeat(64),
    importId: 'imp-1',
    state: 'visible',
    messageCount: 2,
    hlc: '0000000000001:0000:dev',
    ...over,
  };
}

export function message(over: Partial<MessageRecord> = {}): MessageRecord {
  return {
    id: 'msg-1',
    conversationId: 'conv-1',
    externalId: 'node-1',
    role: 'user',
    text: 'How do I prune a Japanese maple?',
    createdAt: 1_700_000_000_000,
    ordinal: 0,
    branch: { onVisiblePath: true, parentExternalId: null },
    hidden: false,
    contentHash: 'a'.repeat(64),
    flags: [],
    importId: 'imp-1',
    state: 'visible',
    hlc: '0000000000001:0000:dev',
    ...over,
  };
}

export function note(over: Partial<NoteRecord> = {}): NoteRecord {
  return {
    id: 'note-1',
    text: 'Prune Japanese maples in late winter.',
    category: 'Facts',
    status: 'provisional',
    tier: 'engram',
    confidence: 0.8,
    sourceMessageIds: ['msg-1'],
    conversationId: 'conv-1',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    keptAt: null,
    supersedes: null,
    supersededBy: null,
    accessCount: 0,
    lastAccessedAt: null,
    pinned: false,
    contentHash: 'b'.repeat(64),
    flags: [],
    hlc: '0000000000001:0000:dev',
    ...over,
  };
}

export function chunk(over: Partial<ChunkRecord> = {}): ChunkRecord {
  return {
    id: 'chunk-1',
    parentType: 'message',
    parentId: 'msg-1',
    conversationId: 'conv-1',
    messageIds: ['msg-1'],
    text: 'How do I prune a Japanese maple?',
    headingPath: [],
    tokenCount: 9,
    tier: 'chat',
    contentHash: 'a'.repeat(64),
    createdAt: 1_700_000_000_000,
    hlc: '0000000000001:0000:dev',
    ...over,
  };
}

export function jobRecord(over: Partial<JobRecord> = {}): JobRecord {
  return {
    id: 'job-1',
    type: 'index.update',
    payload: null,
    status: 'pending',
    priority: 10,
    attempts: 0,
    maxAttempts: 5,
    runAfter: 0,
    leasedBy: null,
    leasedAt: null,
    leaseUntil: null,
    dedupeKey: null,
    progress: null,
    error: null,
    result: null,
    createdAt: 0,
    updatedAt: 0,
    ...over,
  };
}
