import type {
  ChunkRecord,
  ConversationRecord,
  HistoryRecord,
  ImportRecord,
  MessageRecord,
  NoteRecord,
  SettingRecord,
  TombstoneRecord,
  VectorRecord,
} from '../records';

/**
 * The tables a vault file carries, in file order. `jobs` is deliberately absent: a job is this
 * device's pending work (leases name this device's workers, `runAfter` is this device's backoff)
 * and everything a job would produce is derived from records that are in the file; the importing
 * device queues its own jobs (e.g. embedding when vectors are absent or from another model).
 */
export const SECTION_NAMES = [
  'conversations',
  'messages',
  'notes',
  'chunks',
  'history',
  'imports',
  'settings',
  'tombstones',
  'vectors',
] as const;

export type SectionName = (typeof SECTION_NAMES)[number];

/** Sections every v1 file has (vectors are optional per export). */
export const REQUIRED_SECTIONS: readonly SectionName[] = SECTION_NAMES.filter((name) => name !== 'vectors');

export interface SectionRecords {
  conversations: ConversationRecord;
  messages: MessageRecord;
  notes: NoteRecord;
  chunks: ChunkRecord;
  history: HistoryRecord;
  imports: ImportRecord;
  settings: SettingRecord;
  tombstones: TombstoneRecord;
  vectors: VectorRecord;
}

/** Tables whose records carry an `hlc` and can be deleted with a tombstone. */
export const STAMPED_SECTIONS = ['conversations', 'messages', 'notes', 'chunks'] as const;
export type StampedSection = (typeof STAMPED_SECTIONS)[number];

export function isStampedSection(name: string): name is StampedSection {
  return (STAMPED_SECTIONS as readonly string[]).includes(name);
}

export function isSectionName(name: unknown): name is SectionName {
  return typeof name === 'string' && (SECTION_NAMES as readonly string[]).includes(name);
}

/** A whole vault in memory: one array of records per table (tests, CLI-sized vaults, merge). */
export type VaultState = { [K in SectionName]: SectionRecords[K][] };

export function emptyVaultState(): VaultState {
  return { conversations: [], messages: [], notes: [], chunks: [], history: [], imports: [], settings: [], tombstones: [], vectors: [] };
}

/** The primary key of a record in its table, as one string. */
export function recordKey<K extends SectionName>(section: K, record: SectionRecords[K]): string {
  switch (section) {
    case 'settings':
      return (record as SettingRecord).key;
    case 'tombstones': {
      const t = record as TombstoneRecord;
      return tombstoneKey(t.table, t.id);
    }
    case 'vectors': {
      const v = record as VectorRecord;
      return JSON.stringify([v.recordId, v.modelId]);
    }
    default:
      return (record as { id: string }).id;
  }
}

export function tombstoneKey(table: string, id: string): string {
  return JSON.stringify([table, id]);
}

/** A batch of records of one table, as the reader yields them and an importer consumes them. */
export type SectionBatch = { [K in SectionName]: { section: K; records: SectionRecords[K][] } }[SectionName];

/**
 * Settings lines `vault.seen:<device>`: what a device had seen (latest stamp per device) when it
 * exported, carried so other devices can tell when a tombstone reached every device
 * (core/curate/retention.ts). Bookkeeping, not content: digests leave them out.
 */
export const SEEN_PREFIX = 'vault.seen:';

export function isSyncBookkeeping(row: Pick<SettingRecord, 'key'>): boolean {
  return row.key.startsWith(SEEN_PREFIX);
}
