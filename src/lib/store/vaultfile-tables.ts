import type { Table } from 'dexie';
import type { VaultCounts } from '../core/api/vault-file';
import { SECTION_NAMES, type SectionName, type SectionRecords } from '../core/vaultfile/sections';
import { countPublishedMessages } from './messages-store';
import type { VaultDb } from './schema';
import { isDeviceSetting } from './settings-repo';
import { withStoreTimeout, type TxOptions } from './transaction';

/**
 * How the vault file's sections map onto the Dexie tables, and which rows a file carries:
 *
 * - conversations and messages: only visible ones. A `staged` row belongs to an import that has
 *   not finished and is not part of the vault yet; so are the messages of a staged conversation
 *   (an import writes a new conversation's messages `visible` and hides them behind their staged
 *   conversation). A reader skips such rows in a file too.
 * - settings: every row except this device's own settings (settings-repo.ts `isDeviceSetting`).
 * - every other section: every row. `jobs` is never exported (see core/vaultfile/sections.ts).
 */

/** Rows per page when paging a table or a staged section: bounds memory and transaction size. */
export const PAGE_ROWS = 1_000;

export type AnyRecord = SectionRecords[SectionName];

export function tableOf<K extends SectionName>(db: VaultDb, section: K): Table<SectionRecords[K], unknown> {
  return db.table(section) as unknown as Table<SectionRecords[K], unknown>;
}

/** The IndexedDB primary key of a record (compound keys as arrays). */
export function primaryKeyOf(section: SectionName, record: AnyRecord): string | [string, string] {
  switch (section) {
    case 'settings':
      return (record as SectionRecords['settings']).key;
    case 'tombstones': {
      const t = record as SectionRecords['tombstones'];
      return [t.table, t.id];
    }
    case 'vectors': {
      const v = record as SectionRecords['vectors'];
      return [v.recordId, v.modelId];
    }
    default:
      return (record as { id: string }).id;
  }
}

export function isStagedRow(section: SectionName, record: AnyRecord): boolean {
  if (section !== 'conversations' && section !== 'messages') return false;
  // A message carrying `stagedBy` is in the staged index whatever its state says: it stays out of files.
  const row = record as { state?: unknown; stagedBy?: unknown };
  return row.state === 'staged' || (section === 'messages' && row.stagedBy !== undefined);
}

/** Whether a stored row belongs in a vault file (`stagedConversations`: ids of staged conversations). */
export function isExportable(section: SectionName, record: AnyRecord, stagedConversations: ReadonlySet<string>): boolean {
  if (isStagedRow(section, record)) return false;
  if (section === 'messages') return !stagedConversations.has((record as SectionRecords['messages']).conversationId);
  if (section === 'settings') return !isDeviceSetting((record as SectionRecords['settings']).key);
  return true;
}

/** Ids of conversations of unfinished imports (few: only while an import runs). Inside a transaction or not. */
export async function stagedConversationIds(db: VaultDb): Promise<Set<string>> {
  return new Set((await db.conversations.where('state').equals('staged').primaryKeys()) as string[]);
}

export function emptyCounts(): VaultCounts {
  return Object.fromEntries(SECTION_NAMES.map((name) => [name, 0])) as VaultCounts;
}

/**
 * Counts of what an export would hold. Not cheap on a large vault: IndexedDB counts a table or an
 * index range by walking it (Chromium, 2026-11-29: 1-2.4 s per table of 300-400k rows). `vectors:
 * false` leaves the vectors out (0), for a status that neither shows nor compares them.
 */
export function vaultCounts(db: VaultDb, tx: TxOptions & { vectors?: boolean } = {}): Promise<VaultCounts> {
  const withVectors = tx.vectors !== false;
  const work = db.transaction('r', [...(SECTION_NAMES as unknown as string[]), 'messageBlocks', 'summaries'], async () => {
    const counts = emptyCounts();
    counts.conversations = await db.conversations.where('state').equals('visible').count();
    counts.messages = await countPublishedMessages(db, await stagedConversationIds(db));
    counts.settings =
      (await db.settings.toCollection().primaryKeys()).filter((key) => !isDeviceSetting(key)).length + (await db.summaries.count());
    const tables: (keyof VaultCounts)[] = [
      'notes',
      'chunks',
      'history',
      'imports',
      'tombstones',
      ...(withVectors ? ['vectors' as const] : []),
    ];
    for (const name of tables) counts[name] = await db.table(name).count();
    return counts;
  });
  return withStoreTimeout(work, { ...tx, label: tx.label ?? 'counting the vault' });
}

export function totalOf(counts: Partial<VaultCounts>): number {
  return Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0);
}
