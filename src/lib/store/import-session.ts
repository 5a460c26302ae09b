import {
  addMessages,
  conversationMessages,
  deleteConversationMessages,
  deleteStagedMessages,
  messageTables,
  updateMessage,
} from './messages-store';
import { derivedRecordId } from '../core/ids';
import type { ConversationRecord, MessageRecord, NoteRecord, Role, Source } from '../core/records';
import { sha256Hex } from '../core/text/normalize';
import type { VaultDb } from './schema';
import { runTx, timeoutForRows, withStoreTimeout, type TxOptions } from './transaction';

/** A message ready to store: text already passed write-time safety, hash computed from it. */
export interface IncomingMessage {
  externalId: string;
  role: Role;
  /** The speaker's name, already through write-time safety; absent when the source names none. */
  speaker?: string;
  text: string;
  contentHash: string;
  createdAt: number | null;
  parentExternalId: string | null;
  onVisiblePath: boolean;
  hidden: boolean;
  flags: string[];
}

export interface IncomingConversation {
  source: Source;
  externalId: string;
  title: string;
  createdAt: number | null;
  updatedAt: number | null;
  messages: IncomingMessage[];
}

/** What one conversation contributed. Message buckets are disjoint: hidden wins over branch. */
export interface ConversationOutcome {
  conversationId: string;
  conversation: 'stored' | 'existing';
  /** Visible-thread messages: found = stored + existing. */
  messages: { found: number; stored: number; existing: number };
  otherBranches: number;
  hidden: number;
}

interface PendingUpdate {
  id: string;
  addedVisible: number;
  updatedAt: number | null;
  title: string;
}

/** Where an already-stored message sits now (a conversation continued from an edit moves it). */
interface PlacementUpdate {
  id: string;
  ordinal: number;
  onVisiblePath: boolean;
  parentExternalId: string | null;
}

/** A conversation with the ids and hash its store needs, computed before its turn to be stored. */
interface PreparedConversation {
  incoming: IncomingConversation;
  id: string;
  threadHash: string;
  hasThread: boolean;
  messageIds: string[];
}

type KnownMessages = Map<string, Pick<MessageRecord, 'ordinal' | 'branch'>>;

/** Record ids derive from what names a record in its source: same export, same ids, anywhere. */
export function conversationRecordId(source: Source, externalId: string): Promise<string> {
  return derivedRecordId('conv', source, externalId);
}

export function messageRecordId(conversationId: string, externalId: string): Promise<string> {
  return derivedRecordId('msg', conversationId, externalId);
}

export function resourceRecordId(externalId: string): Promise<string> {
  return derivedRecordId('note', 'resource', externalId);
}

function bucketOf(m: IncomingMessage): 'hidden' | 'other' | 'visible' {
  return m.hidden ? 'hidden' : m.onVisiblePath ? 'visible' : 'other';
}

/**
 * Writes one file's conversations as *staged* rows (invisible to every view) in bounded batches,
 * then makes them visible in one transaction (`publish`) or removes them (`rollback`). Existing
 * conversations are never touched before `publish`, so a failed or cancelled file leaves the
 * vault exactly as it was. Record ids derive from source + external ids, so re-importing adds
 * nothing and a conversation that grew adds only its new messages; an identical conversation under
 * another external id (same visible-thread content hash) is recognised as existing.
 */
export class ImportSession {
  private readonly updates = new Map<string, PendingUpdate>();
  private readonly placements = new Map<string, PlacementUpdate>();
  private readonly resources = new Map<string, NoteRecord>();
  private readonly grownMessages: string[] = [];
  private stagedConversations = 0;
  private stagedMessages = 0;

  constructor(
    private readonly db: VaultDb,
    /** Marks this file's rows (e.g. `imp_<id>/2`); rollback removes exactly these. */
    readonly stageKey: string,
    private readonly stamp: () => string,
    private readonly tx: TxOptions = {},
  ) {}

  get staged(): { conversations: number; messages: number } {
    return { conversations: this.stagedConversations, messages: this.stagedMessages };
  }

  /** The previous batch's store, finished or failed: the next batch's lookup waits for it. */
  private queue: Promise<void> = Promise.resolve();

  /**
   * Stores a batch of conversations: one lookup round trip, one write transaction. A batch may be
   * added while the previous one is still being written: its ids and hashes are computed at once,
   * and its lookup is sent the moment the previous write is done (from that write's completion, not
   * when the caller next gets the thread), so it sees every row written before it and the database
   * is not left idle between batches (issue 19).
   */
  async add(batch: readonly IncomingConversation[]): Promise<ConversationOutcome[]> {
    const prepared = await Promise.all(batch.map((c) => this.prepare(c)));
    const stored = this.queue.then(() => this.store(prepared));
    this.queue = stored.then(
      () => undefined,
      () => undefined,
    );
    return stored;
  }

  private async prepare(incoming: IncomingConversation): Promise<PreparedConversation> {
    const id = await conversationRecordId(incoming.source, incoming.externalId);
    const visible = incoming.messages.filter((m) => bucketOf(m) === 'visible');
    return {
      incoming,
      id,
      threadHash: await sha256Hex(visible.map((m) => m.contentHash).join('\n')),
      hasThread: visible.length > 0,
      messageIds: await Promise.all(incoming.messages.map((m) => messageRecordId(id, m.externalId))),
    };
  }

  private async store(batch: readonly PreparedConversation[]): Promise<ConversationOutcome[]> {
    const { byId, byHash } = await this.lookup(
      batch.map((c) => c.id),
      batch.map((c) => c.threadHash),
    );
    const outcomes: ConversationOutcome[] = [];
    const conversationRows: ConversationRecord[] = [];
    const messageRows: MessageRecord[] = [];
    for (const prepared of batch) {
      const sameContent = prepared.hasThread ? byHash.get(prepared.threadHash) : undefined;
      const existing = byId.get(prepared.id);
      if (!existing && sameContent && sameContent !== prepared.id) {
        outcomes.push(this.duplicateOutcome(sameContent, prepared.incoming));
        continue;
      }
      const known: KnownMessages = existing ? await this.existingMessages(prepared.id) : new Map();
      outcomes.push(this.stageConversation(prepared, existing ?? null, known, conversationRows, messageRows));
    }
    await this.write(conversationRows, messageRows);
    return outcomes;
  }

  /**
   * Every read is sent at once, in one transaction: one round trip, however busy the page's thread
   * is (`anyOf` walks a cursor, a round trip per step, and each step waits for the thread). The
   * lookups' time fell with the parse loop's yields (4.8 s to 1.1 s of a 30k-message import); this
   * change alone did not move it measurably.
   */
  private async lookup(ids: string[], hashes: string[]) {
    const table = this.db.conversations;
    return runTx(
      this.db,
      'r',
      [table],
      async () => {
        const [rows, sameHash] = await Promise.all([
          table.bulkGet(ids),
          Promise.all([...new Set(hashes)].map((hash) => table.where('contentHash').equals(hash).toArray())),
        ]);
        const byId = new Map<string, ConversationRecord>();
        for (const row of rows) if (row) byId.set(row.id, row);
        const byHash = new Map<string, string>();
        for (const row of sameHash.flat())
          if (row.state === 'visible' || row.importId === this.stageKey) byHash.set(row.contentHash, row.id);
        return { byId, byHash };
      },
      { ...this.tx, label: 'looking up existing conversations' },
    );
  }

  private async existingMessages(conversationId: string): Promise<KnownMessages> {
    const rows = await withStoreTimeout(conversationMessages(this.db, conversationId), {
      ...this.tx,
      label: 'reading existing messages',
    });
    return new Map(rows.map((r) => [r.id, { ordinal: r.ordinal, branch: r.branch }]));
  }

  private duplicateOutcome(conversationId: string, incoming: IncomingConversation): ConversationOutcome {
    const visible = incoming.messages.filter((m) => bucketOf(m) === 'visible').length;
    return {
      conversationId,
      conversation: 'existing',
      messages: { found: visible, stored: 0, existing: visible },
      otherBranches: incoming.messages.filter((m) => bucketOf(m) === 'other').length,
      hidden: incoming.messages.filter((m) => bucketOf(m) === 'hidden').length,
    };
  }

  private stageConversation(
    { id, threadHash, incoming, messageIds }: PreparedConversation,
    existing: ConversationRecord | null,
    known: KnownMessages,
    conversationRows: ConversationRecord[],
    messageRows: MessageRecord[],
  ): ConversationOutcome {
    const outcome: ConversationOutcome = {
      conversationId: id,
      conversation: existing ? 'existing' : 'stored',
      messages: { found: 0, stored: 0, existing: 0 },
      otherBranches: 0,
      hidden: 0,
    };
    let addedVisible = 0;
    let staged = false;
    for (let i = 0; i < incoming.messages.length; i++) {
      const m = incoming.messages[i]!;
      const bucket = bucketOf(m);
      if (bucket === 'hidden') outcome.hidden++;
      else if (bucket === 'other') outcome.otherBranches++;
      else outcome.messages.found++;
      const messageId = messageIds[i]!;
      const stored = known.get(messageId);
      if (stored) {
        if (bucket === 'visible') outcome.messages.existing++;
        if (stored.ordinal !== i || stored.branch.onVisiblePath !== m.onVisiblePath) {
          this.placements.set(messageId, {
            id: messageId,
            ordinal: i,
            onVisiblePath: m.onVisiblePath,
            parentExternalId: m.parentExternalId,
          });
        }
        continue;
      }
      const branch = { onVisiblePath: m.onVisiblePath, parentExternalId: m.parentExternalId };
      known.set(messageId, { ordinal: i, branch });
      staged = true;
      if (bucket === 'visible') {
        outcome.messages.stored++;
        addedVisible++;
      }
      messageRows.push({
        id: messageId,
        conversationId: id,
        externalId: m.externalId,
        role: m.role,
        ...(m.speaker ? { speaker: m.speaker } : {}),
        text: m.text,
        createdAt: m.createdAt,
        // Position in the parser's order: the visible thread first (root to leaf), then branches.
        // A conversation that grew keeps its thread positions, so new turns sort after old ones.
        ordinal: i,
        branch,
        hidden: m.hidden,
        contentHash: m.contentHash,
        flags: m.flags,
        importId: this.stageKey,
        // A new conversation's messages are hidden by their staged conversation, so they need no
        // flip at publish (touching every message again doubled the cost of a large import). New
        // messages of an existing, visible conversation are staged themselves.
        state: existing ? 'staged' : 'visible',
        ...(existing ? { stagedBy: this.stageKey } : {}),
        hlc: this.stamp(),
      });
      if (existing) this.grownMessages.push(messageId);
    }
    if (!existing) {
      conversationRows.push({
        id,
        source: incoming.source,
        externalId: incoming.externalId,
        title: incoming.title,
        createdAt: incoming.createdAt,
        updatedAt: incoming.updatedAt ?? incoming.createdAt,
        contentHash: threadHash,
        importId: this.stageKey,
        state: 'staged',
        messageCount: addedVisible,
        hlc: this.stamp(),
      });
    } else if (staged) {
      const prior = this.updates.get(id);
      this.updates.set(id, {
        id,
        addedVisible: (prior?.addedVisible ?? 0) + addedVisible,
        updatedAt: incoming.updatedAt,
        title: incoming.title || existing.title,
      });
    }
    return outcome;
  }

  private async write(conversations: ConversationRecord[], messages: MessageRecord[]): Promise<void> {
    if (conversations.length === 0 && messages.length === 0) return;
    await runTx(
      this.db,
      'rw',
      [this.db.conversations, ...messageTables(this.db)],
      async () => {
        if (conversations.length) await this.db.conversations.bulkAdd(conversations);
        await addMessages(this.db, messages);
      },
      { ...this.tx, label: 'saving imported conversations' },
    );
    this.stagedConversations += conversations.length;
    this.stagedMessages += messages.length;
  }

  /**
   * Holds a resource note (pasted text that is no chat) until `publish`: resources are few and
   * small, so they wait in memory rather than as staged rows. Returns false when the vault (or this
   * file) already has it.
   */
  async stageResource(note: Omit<NoteRecord, 'hlc'>): Promise<boolean> {
    if (this.resources.has(note.id)) return false;
    const existing = await withStoreTimeout(this.db.notes.get(note.id), { ...this.tx, label: 'looking up a resource' });
    if (existing) return false;
    this.resources.set(note.id, { ...note, hlc: this.stamp() });
    return true;
  }

  /** The publish rewrites every staged conversation, grown message, placement and update: its timeout grows with them. */
  publishTimeoutMs(): number {
    return timeoutForRows(
      this.stagedConversations + this.grownMessages.length + this.placements.size + this.updates.size + this.resources.size,
    );
  }

  /** The rollback deletes every staged row. */
  rollbackTimeoutMs(): number {
    return timeoutForRows(this.stagedConversations + this.stagedMessages);
  }

  /** Makes every staged row of this file visible, and applies updates to grown conversations. */
  async publish(): Promise<void> {
    await runTx(
      this.db,
      'rw',
      [this.db.conversations, ...messageTables(this.db), this.db.notes],
      async () => {
        if (this.resources.size) await this.db.notes.bulkPut([...this.resources.values()]);
        await this.db.conversations.where('importId').equals(this.stageKey).modify({ state: 'visible' });
        // An undefined value deletes the property (Dexie's update): the row leaves the sparse index.
        for (const id of this.grownMessages) await updateMessage(this.db, id, { state: 'visible', stagedBy: undefined });
        for (const placement of this.placements.values()) {
          await updateMessage(this.db, placement.id, {
            ordinal: placement.ordinal,
            branch: { onVisiblePath: placement.onVisiblePath, parentExternalId: placement.parentExternalId },
            hlc: this.stamp(),
          });
        }
        for (const update of this.updates.values()) {
          const row = await this.db.conversations.get(update.id);
          if (!row) continue;
          await this.db.conversations.put({
            ...row,
            title: update.title,
            messageCount: row.messageCount + update.addedVisible,
            updatedAt: Math.max(row.updatedAt ?? 0, update.updatedAt ?? 0) || row.updatedAt,
            hlc: this.stamp(),
          });
        }
      },
      { ...this.tx, timeoutMs: this.tx.timeoutMs ?? this.publishTimeoutMs(), label: 'publishing an import' },
    );
  }

  /** Removes every staged row of this file: the vault is as it was before the file. */
  rollback(): Promise<void> {
    return rollbackStaged(this.db, this.stageKey, { ...this.tx, timeoutMs: this.tx.timeoutMs ?? this.rollbackTimeoutMs() });
  }
}

/**
 * Deletes what unpublished files whose stage key starts with `prefix` left: their staged
 * conversations with every message, and staged messages added to existing conversations. A file
 * of the same import that was published keeps its rows.
 */
export function rollbackStaged(db: VaultDb, prefix: string, tx: TxOptions = {}): Promise<void> {
  return runTx(
    db,
    'rw',
    [db.conversations, ...messageTables(db)],
    async () => {
      const staged = await db.conversations
        .where('importId')
        .startsWith(prefix)
        .filter((c) => c.state === 'staged')
        .primaryKeys();
      // Staged messages of conversations the vault held, then every message of a staged conversation.
      await deleteStagedMessages(db, prefix);
      for (const id of staged) await deleteConversationMessages(db, id);
      await db.conversations.bulkDelete(staged);
    },
    { ...tx, label: 'removing an unfinished import' },
  );
}
