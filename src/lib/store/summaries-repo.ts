import type { StoredSummary } from '../core/api/extract-api';
import { safeField } from '../core/safety/write-safety';
import type { VaultDb } from './schema';
import { runTx, withStoreTimeout, type TxOptions } from './transaction';

/**
 * Session summaries (the middle tier of the three-tier compression), one per conversation, kept
 * in the settings table under `extract.summary:<conversationId>` so they travel with the vault file.
 */
export const summaryKey = (conversationId: string): string => `extract.summary:${conversationId}`;

export async function readSummary(db: VaultDb, conversationId: string, tx: TxOptions = {}): Promise<StoredSummary | null> {
  const row = await withStoreTimeout(db.settings.get(summaryKey(conversationId)), { ...tx, label: 'reading a session summary' });
  return (row?.value as StoredSummary | undefined) ?? null;
}

/** Stores a session summary (its text through write-time safety: a model wrote it). */
export function writeSummary(db: VaultDb, unsafe: StoredSummary, tx: TxOptions = {}): Promise<void> {
  const summary = { ...unsafe, text: safeField(unsafe.text) };
  return runTx(
    db,
    'rw',
    db.settings,
    async () => void (await db.settings.put({ key: summaryKey(summary.conversationId), value: summary })),
    {
      ...tx,
      label: 'saving a session summary',
    },
  );
}
