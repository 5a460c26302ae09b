/**
 * The main thread's read-only view of the vault: what the screens list and show, as queries that
 * Dexie's `liveQuery` can watch. The client gets this object and never the vault itself, so no
 * screen can write: writes go through the workers (the import worker for conversations, the vault
 * worker for notes and settings), which hold the locks and roll back interrupted work.
 */
import type { CheckpointRecord, ConversationRecord, HistoryRecord, ImportRecord, MessageRecord, NoteRecord } from '../../core/records';
import type { MarkdownInput } from '../../core/markdown/pages';
import type { SettingsShape } from '../settings-repo';
import type { VaultEntry } from '../../core/api/vaults';
import type { RetentionReport, TableSizes } from '../../core/api/curate-api';
import { openVault, type Vault } from '../vault';
import { VaultRegistry } from '../vault-registry';
import { conversationInsight, type ConversationInsight } from './conversation-insight';
import { readConversationBrowse, type ConversationBrowse } from './conversations-view';
import { conversationLinkCounts, type ConversationLinkCounts } from '../conversation-facets';
import type { ConversationFilter, ConversationSort } from '../../core/api/conversation-search';
import {
  readCheckpoints,
  readPendingProposals,
  readRetentionReport,
  readTableSizes,
  readSweepState,
  type ProposalGroup,
  type SweepState,
} from './curation-view';
import { readExtractionProgress, type ExtractionProgress } from './extraction-view';
import { readInbox, reviewedSince, type InboxGroup } from './inbox-view';
import { loadMarkdownInput } from './markdown-view';
import { readOverview, type ArchiveOverview } from './overview-view';

export type { ConversationInsight } from './conversation-insight';
export type { ConversationBrowse } from './conversations-view';
export type { ConversationLinkCounts } from '../conversation-facets';
export type { ProposalGroup, SweepState } from './curation-view';
export { PROPOSAL_ORDER } from './curation-view';
export type { ExtractionProgress } from './extraction-view';
export type { InboxCounts, InboxGroup, InboxItem } from './inbox-view';
export type { ArchiveOverview } from './overview-view';

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

  /**
   * What the vault holds, in three reads a live query watches apart: a read re-runs when a table it
   * read changes, and extraction writes a note per candidate while the conversations (10,000 rows
   * read back for the messages' count at the heavy archive) stay as they are.
   */
  conversationCounts(): Promise<Pick<VaultCounts, 'conversations' | 'messages'>> {
    const { conversations } = this.vault;
    return Promise.all([conversations.countVisible(), conversations.countMessages()]).then(([c, messages]) => ({
      conversations: c,
      messages,
    }));
  }

  noteCounts(): Promise<Pick<VaultCounts, 'notes' | 'inbox'>> {
    const { notes } = this.vault.db;
    return Promise.all([notes.where('status').equals('kept').count(), notes.where('status').equals('provisional').count()]).then(
      ([kept, inbox]) => ({ notes: kept, inbox }),
    );
  }

  importCount(): Promise<number> {
    return this.vault.db.imports.count();
  }

  /** One visible conversation and its messages (null when it is not, or no longer, visible). */
  async conversation(id: string): Promise<{ conversation: ConversationRecord | null; messages: MessageRecord[] }> {
    const conversation = await this.vault.conversations.get(id);
    if (conversation?.state !== 'visible') return { conversation: null, messages: [] };
    return { conversation, messages: await this.vault.conversations.messages(id) };
  }

  /** The Conversations screen without a query: visible conversations filtered and sorted (at most `limit`). */
  conversationBrowse(filter: ConversationFilter, sort: ConversationSort, limit: number): Promise<ConversationBrowse> {
    return readConversationBrowse(this.vault, filter, sort, limit);
  }

  /** How many Inbox candidates, kept notes and decisions came from one conversation. */
  conversationLinks(conversationId: string): Promise<ConversationLinkCounts> {
    return conversationLinkCounts(this.vault.db, conversationId);
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

  /** The Overview screen: the archive by month, its topics and the subjects' thread maps. */
  overview(): Promise<ArchiveOverview> {
    return readOverview(this.vault);
  }

  /** The cleaning sweep's pending proposals, grouped by type (the Notes screen). */
  pendingProposals(): Promise<ProposalGroup[]> {
    return readPendingProposals(this.vault);
  }

  /** Whether a cleaning sweep is queued or running, and what the last one did. */
  sweepState(): Promise<SweepState> {
    return readSweepState(this.vault);
  }

  /** Checkpoints, newest first (Settings: roll the vault back). */
  checkpoints(): Promise<CheckpointRecord[]> {
    return readCheckpoints(this.vault);
  }

  /** The last retention report (Settings). */
  retentionReport(): Promise<RetentionReport | null> {
    return readRetentionReport(this.vault);
  }

  /** The rows each table holds (Settings, when asked: not for a live query). */
  tableSizes(): Promise<TableSizes> {
    return readTableSizes(this.vault);
  }

  /** What the Markdown export writes: kept notes and the conversations they came from. */
  markdownInput(): Promise<MarkdownInput> {
    return loadMarkdownInput(this.vault);
  }
}

let bound: string | null = null;
let opening: Promise<VaultViews> | null = null;

/**
 * Binds the page's views to the vault open in this tab (once, before any view is read: the page
 * reloads to switch vaults, so no view ever reads two vaults).
 */
export function bindVaultViews(dbName: string): void {
  if (bound !== null && bound !== dbName) throw new Error(`The views are bound to ${bound}; reload to open ${dbName}.`);
  bound = dbName;
}

/** The page's one read-only view of the vault open in this tab (its own database connection). */
export function vaultViews(): Promise<VaultViews> {
  if (bound === null) return Promise.reject(new Error('No vault is open in this tab yet.'));
  opening ??= openVault(bound).then((vault) => {
    // Another tab upgrading the schema: let it, and ask for a reload rather than block it.
    vault.db.on('versionchange', () => {
      vault.db.close();
      return false;
    });
    return new VaultViews(vault);
  });
  return opening;
}

let registry: VaultRegistry | null = null;

/** The list of vaults (read only: an empty registry reads as Personal alone), for the switcher and the "which vault" choices. */
export function vaultsView(): { list(): Promise<VaultEntry[]> } {
  registry ??= new VaultRegistry();
  const reading = registry;
  return { list: () => reading.peek() };
}
