/**
 * The person's recent intent classes: what recall's personalization prior reads (the last 90 days)
 * and what each answered recall adds. Device-local and derived from use, so not in the vault file.
 */
import type { IntentRecord } from '../core/records';
import type { VaultDb } from './schema';
import { runTx, withStoreTimeout } from './transaction';

const DAY = 86_400_000;
export const INTENT_HISTORY_DAYS = 90;

export class IntentsRepo {
  constructor(private readonly db: VaultDb) {}

  /** Intents of the last 90 days (older ones are pruned on the next write). */
  async recent(now: number): Promise<IntentRecord[]> {
    return withStoreTimeout(
      this.db.intents
        .where('at')
        .between(now - INTENT_HISTORY_DAYS * DAY, now, true, true)
        .toArray(),
      {
        label: 'reading the intent history',
      },
    );
  }

  /** Records intents and drops those older than 90 days, in one transaction. */
  async record(entries: readonly { intent: string; at: number }[]): Promise<void> {
    if (entries.length === 0) return;
    const newest = Math.max(...entries.map((e) => e.at));
    await runTx(
      this.db,
      'rw',
      this.db.intents,
      async () => {
        await this.db.intents.bulkPut(entries.map((e, i) => ({ id: `${e.at}-${i}-${Math.random().toString(36).slice(2, 8)}`, ...e })));
        await this.db.intents
          .where('at')
          .below(newest - INTENT_HISTORY_DAYS * DAY)
          .delete();
      },
      { label: 'recording intents' },
    );
  }
}
