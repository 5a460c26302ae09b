/**
 * Entity communities' summaries written by the LLM (core/graph/community-summary.ts), one row per
 * community. Derived and device-local: not in the vault file, cleared by a restore or merge (the
 * index rebuild), rewritten while a model is loaded.
 */
import type { StoredCommunitySummary } from '../core/records';
import { safeField } from '../core/safety/write-safety';
import type { VaultDb } from './schema';
import { runTx, withStoreTimeout } from './transaction';

export class CommunitySummariesRepo {
  constructor(private readonly db: VaultDb) {}

  all(): Promise<StoredCommunitySummary[]> {
    return withStoreTimeout(this.db.communitySummaries.toArray(), { label: 'reading the community summaries' });
  }

  /** Stores one summary (its text through write-time safety: a model wrote it). */
  put(unsafe: StoredCommunitySummary): Promise<void> {
    const row = { ...unsafe, text: safeField(unsafe.text) };
    return runTx(this.db, 'rw', this.db.communitySummaries, async () => void (await this.db.communitySummaries.put(row)), {
      label: 'saving a community summary',
    });
  }

  /** Drops the summaries of communities not in `keep` (ids); returns how many. */
  prune(keep: ReadonlySet<string>): Promise<number> {
    return runTx(
      this.db,
      'rw',
      this.db.communitySummaries,
      async () => {
        const ids = (await this.db.communitySummaries.toCollection().primaryKeys()) as string[];
        const gone = ids.filter((id) => !keep.has(id));
        await this.db.communitySummaries.bulkDelete(gone);
        return gone.length;
      },
      { label: 'dropping old community summaries' },
    );
  }

  clear(): Promise<void> {
    return runTx(this.db, 'rw', this.db.communitySummaries, () => this.db.communitySummaries.clear(), {
      label: 'clearing the community summaries',
    });
  }

  /** What the structural index's signature reads: how many, and when the last was written. */
  async stamp(): Promise<string> {
    const [count, last] = await withStoreTimeout(
      Promise.all([this.db.communitySummaries.count(), this.db.communitySummaries.orderBy('at').last()]),
      { label: 'reading the community summaries' },
    );
    return `${count}/${last?.at ?? 0}`;
  }
}
