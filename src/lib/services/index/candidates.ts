/**
 * CandidateStore.get over the vault: chunks and kept atomic notes by id, with what scoring and
 * packaging need (source title, dates, provenance tier), and the Inbox's provisional candidates at
 * chat weight (no search finds them, they are not indexed; a prompt's list, a pin or an agent's
 * expand names them). Anything no longer retrievable (a chunk of a conversation that is not visible,
 * a resource that is not kept, a note discarded, superseded or held for review) is left out.
 */
import { validityHorizon } from '../../core/curate/validity';
import type { CandidateRecord } from '../../core/recall/ports';
import type { ChunkRecord, ConversationRecord, MessageRecord, NoteRecord } from '../../core/records';
import { countTokens, loadTokenCounter } from '../../core/text/token-count';
import { withStoreTimeout } from '../../store/transaction';
import type { Vault } from '../../store/vault';
import { isInboxCandidate, isIndexedNote, isIndexedResource } from './documents';
import { getMessages } from '../../store/messages-store';

async function byId<T extends { id: string }>(
  read: (ids: string[]) => Promise<(T | undefined)[]>,
  ids: Iterable<string>,
): Promise<Map<string, T>> {
  const list = [...new Set(ids)];
  const rows = list.length ? await withStoreTimeout(read(list), { label: 'reading recall candidates' }) : [];
  return new Map(rows.filter((r): r is T => r !== undefined).map((r) => [r.id, r]));
}

function fromChunk(
  chunk: ChunkRecord,
  conversation: ConversationRecord | undefined,
  resource: NoteRecord | undefined,
  speakers: string[],
): CandidateRecord {
  return {
    id: chunk.id,
    kind: 'chunk',
    text: chunk.text,
    tier: chunk.tier,
    createdAt: chunk.createdAt,
    accessCount: chunk.accessCount ?? 0,
    lastAccessedAt: chunk.lastAccessedAt ?? null,
    conversationId: chunk.conversationId,
    sourceTitle: conversation?.title ?? resource?.title ?? null,
    date: conversation?.createdAt ?? chunk.createdAt,
    messageIds: [...chunk.messageIds],
    speakers,
    contentHash: chunk.contentHash,
    headingPath: [...chunk.headingPath],
    tokenCount: chunk.tokenCount,
    pinned: resource?.pinned ?? false,
  };
}

function fromNote(note: NoteRecord, conversation: ConversationRecord | undefined): CandidateRecord {
  return {
    id: note.id,
    kind: 'note',
    text: note.text,
    tier: note.tier,
    createdAt: note.createdAt,
    accessCount: note.accessCount,
    lastAccessedAt: note.lastAccessedAt,
    ...(note.confidenceTier ? { confidenceTier: note.confidenceTier } : {}),
    validity: validityHorizon(note.text, conversation?.createdAt ?? note.createdAt),
    conversationId: note.conversationId,
    sourceTitle: conversation?.title ?? note.title ?? null,
    date: note.createdAt,
    messageIds: [...note.sourceMessageIds],
    category: note.category,
    contentHash: note.contentHash,
    headingPath: [],
    tokenCount: countTokens(note.text),
    pinned: note.pinned,
    ...(note.pinned ? { notePinned: true } : {}),
  };
}

/**
 * An Inbox candidate nobody has reviewed is the chat's claim, not the person's: chat weight, as its
 * conversation's chunks are retrieved at.
 */
const asChatClaim = (record: CandidateRecord): CandidateRecord => ({ ...record, tier: 'chat' });

/**
 * What the index already knows of a document (its catalog entry): whether it is a note, and a chunk's
 * conversation. readCandidates uses it only to issue its reads side by side; every record still comes
 * from the tables, so a missing or stale hint costs one more read, never a wrong record.
 */
export type CandidateHint = (id: string) => { kind: 'chunk' | 'note'; conversationId?: string | null } | undefined;

/** The rows `read` finds for `ids`, merged into `into`; ids already asked are not read again. */
async function readMore<T extends { id: string }>(
  read: (ids: string[]) => Promise<(T | undefined)[]>,
  ids: Iterable<string>,
  asked: Set<string>,
  into: Map<string, T>,
): Promise<void> {
  const fresh = [...new Set(ids)].filter((id) => !asked.has(id));
  for (const id of fresh) asked.add(id);
  for (const [id, row] of await byId(read, fresh)) into.set(id, row);
}

export async function readCandidates(vault: Vault, ids: readonly string[], hint?: CandidateHint): Promise<CandidateRecord[]> {
  // A note candidate's size is counted here, and the recall that reads it assembles a budget. It is
  // awaited after the first reads are issued: a caller that starts this read and then computes
  // (retrieve.ts reads the keyword hits while the vector scan runs) has the reads in flight.
  const counter = loadTokenCounter();
  const { db } = vault;
  const chunks = new Map<string, ChunkRecord>();
  const notes = new Map<string, NoteRecord>();
  const conversations = new Map<string, ConversationRecord>();
  const askedChunks = new Set<string>();
  const askedNotes = new Set<string>();
  const askedConversations = new Set<string>();
  const readChunks = (list: string[]) => db.chunks.bulkGet(list);
  const readNotes = (list: string[]) => db.notes.bulkGet(list);
  const readConversations = (list: string[]) => db.conversations.bulkGet(list);
  // With the index's hints the three tables are read at once. Without them (or for what they did not
  // name) each read waits for the one before: the chunks, then the notes among the ids that were not
  // chunks, then the conversations of both; in a browser every one of those is a round trip to
  // IndexedDB.
  const known = new Map(hint ? ids.map((id) => [id, hint(id)] as const) : []);
  const first = Promise.all([
    readMore(
      readChunks,
      ids.filter((id) => known.get(id)?.kind !== 'note'),
      askedChunks,
      chunks,
    ),
    readMore(
      readNotes,
      ids.filter((id) => known.get(id)?.kind === 'note'),
      askedNotes,
      notes,
    ),
    readMore(
      readConversations,
      [...known.values()].flatMap((h) => (h?.conversationId ? [h.conversationId] : [])),
      askedConversations,
      conversations,
    ),
  ]);
  await Promise.all([first, counter]);
  // A note the hint named but the notes table does not hold may be a chunk after all.
  await readMore(
    readChunks,
    ids.filter((id) => !chunks.has(id) && !notes.has(id)),
    askedChunks,
    chunks,
  );
  await readMore(
    readNotes,
    [...ids.filter((id) => !chunks.has(id)), ...[...chunks.values()].filter((c) => c.parentType === 'resource').map((c) => c.parentId)],
    askedNotes,
    notes,
  );
  await readMore(
    readConversations,
    [...chunks.values(), ...notes.values()].map((r) => r.conversationId).filter((id): id is string => !!id),
    askedConversations,
    conversations,
  );
  // A chunk names its speakers; one stored before it did is credited from its messages.
  const messages = await byId<MessageRecord>(
    (list) => getMessages(db, list),
    [...chunks.values()].filter((c) => c.parentType === 'message' && !c.speakers).flatMap((c) => c.messageIds),
  );
  const speakersOf = (chunk: ChunkRecord): string[] =>
    chunk.speakers
      ? [...chunk.speakers]
      : [...new Set(chunk.messageIds.flatMap((id) => (messages.get(id) ? [messages.get(id)!.speaker ?? messages.get(id)!.role] : [])))];
  const out: CandidateRecord[] = [];
  for (const id of ids) {
    const chunk = chunks.get(id);
    if (chunk) {
      const conversation = chunk.conversationId ? conversations.get(chunk.conversationId) : undefined;
      const resource = chunk.parentType === 'resource' ? notes.get(chunk.parentId) : undefined;
      if (chunk.conversationId && conversation?.state !== 'visible') continue;
      if (chunk.parentType === 'resource' && !(resource && isIndexedResource(resource))) continue;
      out.push(fromChunk(chunk, conversation, resource, speakersOf(chunk)));
      continue;
    }
    const note = notes.get(id);
    if (note && isIndexedNote(note)) {
      const conversation = note.conversationId ? conversations.get(note.conversationId) : undefined;
      out.push(fromNote(note, conversation?.state === 'visible' ? conversation : undefined));
    } else if (note && isInboxCandidate(note)) {
      // Not indexed, so no search finds one; read by id (a pin from a prompt's list, an agent's
      // expand) it is what the list showed: the chat's claim, at chat weight.
      const conversation = note.conversationId ? conversations.get(note.conversationId) : undefined;
      if (!note.conversationId || conversation?.state === 'visible') out.push(asChatClaim(fromNote(note, conversation)));
    }
  }
  return out;
}

/**
 * A prompt with no subject's list (core/recall/prompt-scope.ts): the notes of `categories` a person
 * would see (kept, and the Inbox's provisional candidates at chat weight, not held for review, not
 * resources or web pages, of a visible conversation or none), kept ones first, each newest first (by
 * the conversation's date), at most `limit`.
 */
export async function scopedNotes(vault: Vault, categories: readonly string[], limit: number): Promise<CandidateRecord[]> {
  await loadTokenCounter();
  const { db } = vault;
  const rows = await withStoreTimeout(
    db.notes
      .where('category')
      .anyOf([...categories])
      .toArray(),
    { label: 'reading notes by category' },
  );
  const live = rows.filter((n) => isIndexedNote(n) || isInboxCandidate(n));
  const conversations = await byId<ConversationRecord>(
    (list) => db.conversations.bulkGet(list),
    live.flatMap((n) => (n.conversationId ? [n.conversationId] : [])),
  );
  // What the person kept first, then the Inbox's candidates; each newest first by when it was said:
  // the conversation's date (a candidate's own createdAt is when extraction wrote it, the same for a
  // whole import), else the note's.
  const when = (n: NoteRecord): number => (n.conversationId ? conversations.get(n.conversationId)?.createdAt : null) ?? n.createdAt;
  const kept = (n: NoteRecord): number => (n.status === 'kept' ? 0 : 1);
  live.sort((a, b) => kept(a) - kept(b) || when(b) - when(a) || b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
  const out: CandidateRecord[] = [];
  for (const note of live) {
    if (out.length >= limit) break;
    const conversation = note.conversationId ? conversations.get(note.conversationId) : undefined;
    if (note.conversationId && conversation?.state !== 'visible') continue;
    const record = fromNote(note, conversation);
    out.push(note.status === 'provisional' ? asChatClaim(record) : record);
  }
  return out;
}
