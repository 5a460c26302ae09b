import type { StoredSummary } from '../core/api/extract-api';
import type { SettingRecord } from '../core/records';
import { safeField } from '../core/safety/write-safety';
import { LEGACY_SUMMARY_PREFIX } from './migrations/v2-summaries';
import type { VaultDb } from './schema';
import { runTx, withStoreTimeout, type TxOptions } from './transaction';

/**
 * Session summaries (the middle tier of the three-tier compression), one per conversation, in their
 * own table since schema version 2. The vault file still carries them as settings rows
 * `extract.summary:<conversationId>` (the format an older build reads and writes), so a file moves
 * between builds unchanged: export turns rows into settings lines, restore and merge turn those
 * lines back into rows (vaultfile-tables.ts `summaryAsSetting` / `settingAsSummary`).
 */
export const summaryKey = (conversationId: string): string => `${LEGACY_SUMMARY_PREFIX}${conversationId}`;

export async function readSummary(db: VaultDb, conversationId: string, tx: TxOptions = {}): Promise<StoredSummary | null> {
  const row = await withStoreTimeout(db.summaries.get(conversationId), { ...tx, label: 'reading a session summary' });
  return row ?? null;
}

/** Stores a session summary (its text through write-time safety: a model wrote it). */
export function writeSummary(db: VaultDb, unsafe: StoredSummary, tx: TxOptions = {}): Promise<void> {
  const summary = { ...unsafe, text: safeField(unsafe.text) };
  return runTx(db, 'rw', db.summaries, async () => void (await db.summaries.put(summary)), {
    ...tx,
    label: 'saving a session summary',
  });
}

/** A summary as the settings line a vault file carries. */
export function summaryAsSetting(summary: StoredSummary): SettingRecord {
  return { key: summaryKey(summary.conversationId), value: summary };
}

export function isSummarySetting(row: Pick<SettingRecord, 'key'>): boolean {
  return row.key.startsWith(LEGACY_SUMMARY_PREFIX);
}

/** The summary a vault file's settings line holds (null when the line is not a summary). */
export function settingAsSummary(row: SettingRecord): StoredSummary | null {
  if (!isSummarySetting(row)) return null;
  const value = row.value as Partial<StoredSummary> | null;
  if (!value || typeof value !== 'object' || typeof value.text !== 'string') return null;
  return { ...(value as StoredSummary), conversationId: row.key.slice(LEGACY_SUMMARY_PREFIX.length) };
}
