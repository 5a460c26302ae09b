/**
 * What the index holds for each part of the vault, read from the vault with its visibility rules:
 * a visible conversation's visible thread (state visible, on the visible path, not hidden) chunked
 * by chunkConversation; a kept resource note (a pasted document) chunked by chunkResource; a kept
 * atomic note as one document of its own. Staged rows of an unfinished import are never read.
 */
import { toChunkRecord } from '../../core/chunk/chunk-record';
import { chunkConversation, type ChunkMessage } from '../../core/chunk/conversation-chunker';
import { chunkResource } from '../../core/chunk/resource-chunker';
import { loadTokenCounter } from '../../core/text/token-count';
import type { ChunkDraft } from '../../core/chunk/types';
import { isHeld } from '../../core/curate/held';
import { embedGroup } from '../../core/index/embed-order';
import type { ChunkRecord, ConversationRecord, MessageRecord, NoteRecord, Tier } from '../../core/records';
import { sha256Hex } from '../../core/text/normalize';
import type { ChunkChange, ChunksRepo } from '../../store/chunks-repo';
import { runTx } from '../../store/transaction';
import type { Vault } from '../../store/vault';
import type { DocEntry } from './catalog';
import type { SavedChunk } from './documents-snapshot';
import { conversationMessages, messageTables } from '../../store/messages-store';

export const isVisibleMessage = (m: MessageRecord): boolean => m.state === 'visible' && m.branch.onVisiblePath && !m.hidden;

/**
 * A note the index holds as a document of its own (kept, and not a resource or a web page: those are
 * chunked). A candidate held because it came from a flagged message stays out until a person keeps it
 * (core/curate/held.ts), whatever else set it kept.
 */
export const isIndexedNote = (n: NoteRecord): boolean => n.status === 'kept' && n.tier !== 'resource' && n.tier !== 'web' && !isHeld(n);
/** An Inbox candidate a person would see: provisional, not held for review, not a resource or web page. */
export const isInboxCandidate = (n: NoteRecord): boolean =>
  n.status === 'provisional' && n.tier !== 'resource' && n.tier !== 'web' && !isHeld(n);
/** Documents are chunked on their headings: pasted ones (tier resource) and captured web pages (tier web). */
export const isIndexedResource = (n: NoteRecord): boolean => n.status === 'kept' && (n.tier === 'resource' || n.tier === 'web');

/** What BM25 and the embedder read for a chunk. */
export const chunkIndexText = (chunk: ChunkRecord): string => chunk.contextText ?? chunk.text;
export const noteIndexText = (note: NoteRecord): string => (note.title ? `${note.title}\n${note.text}` : note.text);

/** When a conversation was last active: what "most recent conversations first" sorts by. */
export const conversationAt = (c: Pick<ConversationRecord, 'updatedAt' | 'createdAt'>): number | null => c.updatedAt ?? c.createdAt ?? null;

export function chunkEntry(chunk: ChunkRecord, at: number | null): DocEntry {
  return savedChunkEntry(
    {
      id: chunk.id,
      hash: chunk.contextHash ?? chunk.contentHash,
      resource: chunk.parentType === 'resource',
      conversationId: chunk.conversationId,
    },
    at,
  );
}

/** A chunk's catalog entry from what the saved catalog keeps of it (documents-snapshot.ts). */
export function savedChunkEntry(chunk: SavedChunk, at: number | null): DocEntry {
  return {
    id: chunk.id,
    kind: 'chunk',
    hash: chunk.hash,
    group: embedGroup(chunk.resource ? 'resource' : 'chat', at),
    at,
    conversationId: chunk.conversationId,
    ...(chunk.resource ? { resource: true } : {}),
  };
}

export async function noteEntry(note: NoteRecord): Promise<DocEntry> {
  return { id: note.id, kind: 'note', hash: await sha256Hex(noteIndexText(note)), group: 0, at: note.keptAt ?? note.createdAt };
}

/** The reads and copies a chunk gathered: a re-chunk keeps them (they set its decay and promotion). */
function readCounts(chunk: ChunkRecord): Partial<ChunkRecord> {
  const { accessCount, lastAccessedAt, copyCount, lastCopiedAt } = chunk;
  return Object.fromEntries(Object.entries({ accessCount, lastAccessedAt, copyCount, lastCopiedAt }).filter(([, v]) => v !== undefined));
}

/** Whether a re-chunked record says the same as the stored one (then it is not rewritten). */
function sameChunk(a: ChunkRecord, b: ChunkRecord): boolean {
  return (
    a.contentHash === b.contentHash &&
    a.contextHash === b.contextHash &&
    a.parentId === b.parentId &&
    a.tier === b.tier &&
    a.messageIds.join('\u001f') === b.messageIds.join('\u001f') &&
    a.headingPath.join('\u001f') === b.headingPath.join('\u001f')
  );
}

/** The change that turns `existing` into `drafts`: unchanged chunks keep their rows (and stamps). */
export async function diffChunks(
  existing: readonly ChunkRecord[],
  drafts: readonly ChunkDraft[],
  seal: (draft: ChunkDraft) => Promise<ChunkRecord>,
): Promise<ChunkChange & { current: ChunkRecord[] }> {
  const before = new Map(existing.map((c) => [c.id, c]));
  const change: ChunkChange & { current: ChunkRecord[] } = { put: [], remove: [], stale: [], current: [] };
  const seen = new Set<string>();
  for (const draft of drafts) {
    seen.add(draft.id);
    const record = await seal(draft);
    const old = before.get(draft.id);
    if (old && sameChunk(old, record) && old.contextText !== undefined) {
      change.current.push(old);
      continue;
    }
    if (old && (old.contextHash ?? old.contentHash) !== record.contextHash) change.stale.push(draft.id);
    change.put.push(old ? { ...record, createdAt: old.createdAt, ...readCounts(old) } : record);
    change.current.push(record);
  }
  for (const id of before.keys()) if (!seen.has(id)) change.remove.push(id);
  return change;
}

function toChunkMessage(m: MessageRecord): ChunkMessage {
  return { id: m.id, role: m.role, text: m.text, createdAt: m.createdAt, ordinal: m.ordinal, speaker: m.speaker ?? null };
}

export interface Sealer {
  stamp: () => string;
  now: () => number;
}

/** What a conversation's re-chunk reads: the conversation, its stored chunks and its messages. */
export interface ConversationRows {
  id: string;
  conversation: ConversationRecord | undefined;
  existing: ChunkRecord[];
  messages: MessageRecord[];
}

/**
 * The rows of several conversations in one read transaction. Read one transaction per conversation,
 * a re-chunk of 2,000 conversations waited on some 8,000 round trips to the database.
 */
export function readConversations(vault: Vault, ids: readonly string[]): Promise<ConversationRows[]> {
  const db = vault.db;
  return runTx(
    db,
    'r',
    [db.conversations, db.chunks, ...messageTables(db)],
    () =>
      Promise.all(
        ids.map(async (id) => {
          const [conversation, existing, messages] = await Promise.all([
            db.conversations.get(id),
            db.chunks.where('conversationId').equals(id).toArray(),
            conversationMessages(db, id),
          ]);
          return { id, conversation, existing, messages };
        }),
      ),
    { label: 'reading conversations to index' },
  );
}

/** The chunks a conversation should have now (none when it is gone or not, or not yet, visible), from its rows. */
export async function conversationChange(rows: ConversationRows, sealer: Sealer) {
  const { conversation, existing } = rows;
  if (conversation?.state === 'visible') {
    const messages = rows.messages.filter(isVisibleMessage);
    await loadTokenCounter();
    const drafts = chunkConversation(
      { id: conversation.id, title: conversation.title, createdAt: conversation.createdAt },
      messages.map(toChunkMessage),
    );
    const created = new Map(messages.map((m) => [m.id, m.createdAt]));
    const fallback = conversation.createdAt ?? sealer.now();
    const change = await diffChunks(existing, drafts, (draft) =>
      toChunkRecord(draft, { tier: 'chat', hlc: sealer.stamp(), createdAt: created.get(draft.messageIds[0] ?? '') ?? fallback }),
    );
    return { ...change, at: conversationAt(conversation), createdAt: conversation.createdAt ?? null };
  }
  return { ...(await diffChunks(existing, [], () => Promise.reject(new Error('unreachable')))), at: null, createdAt: null };
}

/** The chunks of a resource note (a pasted document); none when it is gone or no longer kept. */
export async function resourceChange(chunks: ChunksRepo, note: NoteRecord | undefined, noteId: string, sealer: Sealer) {
  const existing = (await chunks.forParent(noteId)).filter((c) => c.parentType === 'resource');
  await loadTokenCounter();
  const drafts =
    note && isIndexedResource(note)
      ? chunkResource({ id: note.id, title: note.title ?? '', text: note.text, createdAt: note.createdAt })
      : [];
  const tier: Tier = note?.tier ?? 'resource';
  return diffChunks(existing, drafts, (draft) =>
    toChunkRecord(draft, { tier, hlc: sealer.stamp(), createdAt: note?.createdAt ?? sealer.now() }),
  );
}
