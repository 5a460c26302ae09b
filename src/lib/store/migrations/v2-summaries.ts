import type { Transaction } from 'dexie';
import type { StoredSummary } from '../../core/api/extract-api';
import type { SettingRecord } from '../../core/records';

/** The settings key session summaries were kept under before schema version 2. */
export const LEGACY_SUMMARY_PREFIX = 'extract.summary:';

/**
 * Schema version 2: session summaries leave the settings table for `summaries` (one row per
 * conversation). Every `extract.summary:<id>` row is moved whole; a row whose value is not a
 * summary stays where it was, so nothing is lost whatever an older build wrote there.
 */
export async function moveSummariesOutOfSettings(tx: Transaction): Promise<void> {
  const settings = tx.table<SettingRecord, string>('settings');
  const rows = await settings.where('key').startsWith(LEGACY_SUMMARY_PREFIX).toArray();
  const moved: StoredSummary[] = [];
  const keys: string[] = [];
  for (const row of rows) {
    const value = row.value as Partial<StoredSummary> | null;
    if (!value || typeof value !== 'object' || typeof value.text !== 'string') continue;
    moved.push({ ...(value as StoredSummary), conversationId: row.key.slice(LEGACY_SUMMARY_PREFIX.length) });
    keys.push(row.key);
  }
  if (moved.length === 0) return;
  await tx.table<StoredSummary, string>('summaries').bulkPut(moved);
  await settings.bulkDelete(keys);
}
