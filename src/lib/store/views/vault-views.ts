/**
 * The main thread's read-only view of the vault: what the screens list and show, as queries that
 * Dexie's `liveQuery` can watch. The client gets this object and never the vault itself, so no
 * screen can write: writes go through the workers (the import worker for conversations, the vault
 * worker for notes and settings), which hold the locks and roll back interrupted work.
 */
import type { ConversationRecord, HistoryRecord, ImportRecord, MessageRecord, NoteRecord } from '../../core/records';
import type { SettingsShape } from '../settings-repo';
import { openVault, type Vault } from '../vault';
import { conversationInsight, type ConversationInsight } from './conversation-insight';
import { readExtractionProgress, type ExtractionProgress } from './extraction-view';
import { readInbox, reviewedSince, type InboxGroup } from './inbox-view';

export type { ConversationInsight } from './conversation-insight';
export type { ExtractionProgress } from './extraction-view';
export type { InboxCounts, InboxGroup, InboxItem } from './inbox-view';

export interface VaultCounts {
  conversations: number;
  messages: number;
  notes: number;
  inbox: number;
  imports: number;
}

export class VaultViews {
  constructor(private readonly vault: Vault) {}

  setting<K extends keyof SettingsShape>(key: K): Promise<SettingsShape[K]> {
    return this.vault.settings.get(key);
  }

  counts(): Promise<VaultCounts> {
    const { vault } = this;
    return Promise.all([
      vault.conversations.countVisible(),
      vault.conversations.countMessages(),
      vault.db.notes.where('status').equals('kept').count(),
      vault.db.notes.where('status').equals('provisional').count(),
      vault.db.imports.count(),
    ]).then(([conversations, messages, notes, inbox, imports]) => ({ conversations, messages, notes, inbox, imports }));
  }

  /** Visible conversations, newest first. */
  conversations(limit: number): Promise<ConversationRecord[]> {
    return this.vault.conversations.listVisible(limit);
  }

  /** One visible conversation and its messages (null when it is not, or no longer, visible). */
  async conversation(id: string): Promise<{ conversation: ConversationRecord | null; messages: MessageRecord[] }> {
    const conversation = await this.vault.conversations.get(id);
    if (conversation?.state !== 'visible') return { conversation: null, messages: [] };
    return { conversation, messages: await this.vault.conversations.messages(id) };
  }

  insight(conversationId: string): Promise<ConversationInsight | null> {
    return conversationInsight(this.vault, conversationId);
  }

  /** Provisional candidates, grouped for the Inbox in worth order. */
  inbox(): Promise<InboxGroup[]> {
    return readInbox(this.vault);
  }

  /** Candidates reviewed in the Inbox since `since` (the "review N today" count). */
  reviewedSince(since: number): Promise<number> {
    return reviewedSince(this.vault, since);
  }

  /** Every note the Notes screen and the sweep look at (resources are documents, listed elsewhere). */
  notes(): Promise<NoteRecord[]> {
    return this.vault.db.notes.filter((n) => n.tier !== 'resource' && n.tier !== 'web').toArray();
  }

  /** A note's history, newest first. */
  async history(noteId: string): Promise<HistoryRecord[]> {
    return (await this.vault.notes.history(noteId)).reverse();
  }

  /** Progress of one job type's batch of work (extraction), from index counts while it runs. */
  extractionProgress(type: string): Promise<ExtractionProgress | null> {
    return readExtractionProgress(this.vault.db, type);
  }

  recentImports(limit: number): Promise<ImportRecord[]> {
    return this.vault.imports.recent(limit);
  }
}

let opening: Promise<VaultViews> | null = null;

/** The page's one read-only view of the vault (its own database connection). */
export function vaultViews(): Promise<VaultViews> {
  opening ??= openVault().then((vault) => {
    // Another tab upgrading the schema: let it, and ask for a reload rather than block it.
    vault.db.on('versionchange', () => {
      vault.db.close();
      return false;
    });
    return new VaultViews(vault);
  });
  return opening;
}
