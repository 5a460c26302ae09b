import type { ConversationRecord, MessageRecord, Role, Source } from '../records';
import { contentHash, normalizeMultiline, sha256Hex } from '../text/normalize';
import type { CapturePayload } from './payload';

/**
 * How a capture becomes records, deterministically: capturing the same conversation again yields
 * the same ids, so only messages the vault does not hold yet are new.
 *
 * - conversation id: hash of the source and the site's conversation id (from the URL); a thread
 *   without one, of its first message; a resource, of its URL without query and fragment, or of
 *   its text when it has no URL.
 * - message id: the conversation id, the message's position in the thread and its content hash.
 *   An earlier message edited on the site (a new branch) gets a new id at the same position; the
 *   one it replaced leaves the visible path.
 *
 * Resources (a selection, an article, pasted or shared text) are kept as a one-message
 * conversation with source 'capture' until the importer defines a resource record.
 */
export interface PlannedMessage {
  record: MessageRecord;
  isNew: boolean;
}

export interface CapturePlan {
  conversation: ConversationRecord;
  messages: PlannedMessage[];
  /** Stored messages that leave the visible path (replaced at their position by an edit). */
  superseded: MessageRecord[];
  newCount: number;
  existingCount: number;
}

export interface PlanContext {
  now: number;
  importId: string;
  /** Hybrid-logical-clock stamp for every written row. */
  hlc: string;
  existingConversation: ConversationRecord | undefined;
  existingMessages: readonly MessageRecord[];
}

/** The key that names a conversation across captures. */
export function conversationKey(payload: CapturePayload): string {
  if (payload.kind === 'conversation') {
    if (payload.conversationId) return `${payload.source}:id:${payload.conversationId}`;
    // A thread without an id in its URL (a new chat on the site's home page): its first message
    // names it, and stays the same while the thread grows.
    return `${payload.source}:first:${normalizeMultiline(payload.messages[0]?.text ?? '')}`;
  }
  if (payload.url) {
    const url = new URL(payload.url);
    return `${payload.source}:url:${url.origin}${url.pathname}`;
  }
  return `${payload.source}:text:${normalizeMultiline(payload.text)}`;
}

export async function conversationIdFor(payload: CapturePayload): Promise<string> {
  return `cap-${(await sha256Hex(conversationKey(payload))).slice(0, 32)}`;
}

interface CapturedTurn {
  role: Role;
  text: string;
  externalId: string | null;
}

function turnsOf(payload: CapturePayload): CapturedTurn[] {
  if (payload.kind === 'conversation') return payload.messages.map((m) => ({ role: m.role, text: m.text, externalId: m.externalId }));
  return [{ role: 'user', text: payload.text, externalId: null }];
}

function sourceOf(payload: CapturePayload): Source {
  return payload.kind === 'conversation' ? payload.source : 'capture';
}

/** A stamp in the `<13-digit ms>:<4-digit counter>:<node>` form the records use. */
export function captureHlc(now: number, counter = 0): string {
  return `${String(now).padStart(13, '0')}:${String(counter).padStart(4, '0')}:capture`;
}

/** A capture with its hashes and ids computed (async: SHA-256), ready to be planned against the store. */
export interface PreparedCapture {
  payload: CapturePayload;
  conversationId: string;
  turns: (CapturedTurn & { id: string; hash: string; ordinal: number })[];
  threadHash: string;
}

export async function prepareCapture(payload: CapturePayload): Promise<PreparedCapture> {
  const conversationId = await conversationIdFor(payload);
  const turns: PreparedCapture['turns'] = [];
  for (const [ordinal, turn] of turnsOf(payload).entries()) {
    const text = normalizeMultiline(turn.text);
    const hash = await contentHash(text);
    turns.push({ ...turn, text, hash, ordinal, id: `${conversationId}:${ordinal}:${hash.slice(0, 16)}` });
  }
  const threadHash = await sha256Hex(turns.map((t) => t.hash).join('\n'));
  return { payload, conversationId, turns, threadHash };
}

/**
 * Decides what a prepared capture adds to what is stored. Synchronous, so a store can run it
 * inside the transaction that reads the existing rows and writes the new ones.
 */
export function planCapture(prepared: PreparedCapture, context: PlanContext): CapturePlan {
  const { payload, conversationId } = prepared;
  const existingById = new Map(context.existingMessages.map((m) => [m.id, m]));
  const messages: PlannedMessage[] = prepared.turns.map((turn) => {
    const known = existingById.get(turn.id);
    if (known) return { record: known, isNew: false };
    const record: MessageRecord = {
      id: turn.id,
      conversationId,
      externalId: turn.externalId ?? `position-${turn.ordinal}`,
      role: turn.role,
      text: turn.text,
      createdAt: null,
      ordinal: turn.ordinal,
      branch: { onVisiblePath: true, parentExternalId: null },
      hidden: false,
      contentHash: turn.hash,
      flags: [],
      importId: context.importId,
      state: 'visible',
      hlc: context.hlc,
    };
    return { record, isNew: true };
  });
  const capturedIds = new Set(messages.map((m) => m.record.id));
  const capturedOrdinals = new Set(messages.map((m) => m.record.ordinal));
  const superseded = context.existingMessages
    .filter((m) => m.branch.onVisiblePath && capturedOrdinals.has(m.ordinal) && !capturedIds.has(m.id))
    .map((m) => ({ ...m, branch: { ...m.branch, onVisiblePath: false }, hlc: context.hlc }));
  const newCount = messages.filter((m) => m.isNew).length;
  const allIds = new Set([...existingById.keys(), ...capturedIds]);
  const existing = context.existingConversation;
  const conversation: ConversationRecord = {
    id: conversationId,
    source: sourceOf(payload),
    externalId:
      payload.kind === 'conversation' ? (payload.conversationId ?? payload.url ?? conversationId) : (payload.url ?? conversationId),
    title: payload.title || existing?.title || 'Untitled capture',
    createdAt: existing?.createdAt ?? context.now,
    updatedAt: context.now,
    contentHash: prepared.threadHash,
    importId: existing?.importId ?? context.importId,
    state: 'visible',
    messageCount: allIds.size,
    hlc: context.hlc,
  };
  return { conversation, messages, superseded, newCount, existingCount: messages.length - newCount };
}
