/**
 * The retrievable units of a vault: every visible conversation's visible thread, chunked as the
 * product chunks it, and every kept note (resources chunked by their headings, engrams whole).
 * Staged rows of an unfinished import, hidden messages and other branches are never read.
 */
import { chunkResource } from '../../src/lib/core/chunk/resource-chunker';
import type { ChunkConversation, ChunkMessage } from '../../src/lib/core/chunk/conversation-chunker';
import type { CandidateRecord } from '../../src/lib/core/recall/ports';
import type { ConversationRecord, MessageRecord, NoteRecord } from '../../src/lib/core/records';
import { hashBasis } from '../../src/lib/core/text/normalize';
import { countTokens } from '../../src/lib/core/text/token-count';
import type { Vault } from '../../src/lib/store/vault';
import { conversationUnits, type IndexUnit, type UnitOptions } from './units';

export interface VaultUnitOptions extends UnitOptions {
  /** A speaker name for a message (e.g. a transcript's named speakers); default: the role. */
  speakerOf?: (message: MessageRecord, conversation: ConversationRecord) => string | null;
}

export function visibleThread(rows: readonly MessageRecord[]): MessageRecord[] {
  return rows.filter((m) => m.state === 'visible' && !m.hidden && m.branch.onVisiblePath).sort((a, b) => a.ordinal - b.ordinal);
}

function chunkMessages(conversation: ConversationRecord, rows: readonly MessageRecord[], options: VaultUnitOptions): ChunkMessage[] {
  return visibleThread(rows).map((m) => ({
    id: m.id,
    role: m.role,
    text: m.text,
    createdAt: m.createdAt,
    ordinal: m.ordinal,
    speaker: options.speakerOf?.(m, conversation) ?? null,
  }));
}

function noteUnits(note: NoteRecord): IndexUnit[] {
  const base = (kind: CandidateRecord['kind'], id: string, text: string, headingPath: string[], context: string): IndexUnit => {
    const record: CandidateRecord = {
      id,
      kind,
      text,
      tier: note.tier,
      createdAt: note.createdAt,
      accessCount: note.accessCount,
      lastAccessedAt: note.lastAccessedAt,
      conversationId: note.conversationId,
      sourceTitle: note.title ?? null,
      date: note.createdAt,
      messageIds: [...note.sourceMessageIds],
      contentHash: hashBasis(text),
      headingPath,
      tokenCount: countTokens(text),
      pinned: note.pinned,
    };
    return { record, indexText: context, embedText: context };
  };
  if (note.tier !== 'resource') return [base('note', note.id, note.text, [], note.text)];
  // A resource is chunked by its headings: the chunks share its provenance and are chunks (`<note id>#n`), so
  // reading one writes no access count back to a note id that does not exist.
  const drafts = chunkResource({ id: note.id, title: note.title ?? '', text: note.text, createdAt: note.createdAt });
  return drafts.map((d) => base('chunk', d.id, d.text, d.headingPath, d.contextText));
}

/** Every unit of the vault, conversations first (newest first), then kept notes. */
export async function vaultUnits(vault: Vault, options: VaultUnitOptions = {}): Promise<IndexUnit[]> {
  const conversations = await vault.conversations.listVisible(Number.MAX_SAFE_INTEGER);
  const units: IndexUnit[] = [];
  for (const conversation of conversations) {
    const rows = await vault.conversations.messages(conversation.id);
    const chunkConv: ChunkConversation = { id: conversation.id, title: conversation.title, createdAt: conversation.createdAt };
    units.push(...conversationUnits(chunkConv, chunkMessages(conversation, rows, options), options));
  }
  const notes = await vault.db.notes.where('status').equals('kept').toArray();
  for (const note of notes) units.push(...noteUnits(note));
  return units;
}
