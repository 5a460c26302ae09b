import type { StoredSummary } from '../core/api/extract-api';
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

export function writeSummary(db: VaultDb, summary: StoredSummary, tx: TxOptions = {}): Promise<void> {
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
