import type { ProposalRecord, ProposalType } from '../core/records';
import type { VaultDb } from './schema';
import { runTx, withStoreTimeout, type TxOptions } from './transaction';

/** Proposals written per transaction by a sweep. */
const WRITE_BATCH = 500;

/**
 * The cleaning sweep's stored proposals. A finished sweep's proposals replace the pending ones of
 * every earlier sweep (they were computed from an older state of the notes); applied and
 * dismissed ones stay as the record of what the person decided (retention drops them after 30
 * days), and a dismissed proposal's key keeps the sweep from making it again.
 */
export class ProposalsRepo {
  constructor(
    private readonly db: VaultDb,
    private readonly tx: TxOptions = {},
  ) {}

  /** Keys of proposals the person dismissed. */
  async dismissedKeys(): Promise<Set<string>> {
    const rows = await withStoreTimeout(this.db.proposals.where('status').equals('dismissed').toArray(), {
      ...this.tx,
      label: 'reading dismissed proposals',
    });
    return new Set(rows.map((r) => r.key));
  }

  /** Writes a batch of a sweep's proposals (ids are stable per sweep, so a retried sweep overwrites). */
  async write(records: readonly ProposalRecord[], onBatch?: (written: number) => Promise<void>): Promise<void> {
    for (let at = 0; at < records.length; at += WRITE_BATCH) {
      const batch = records.slice(at, at + WRITE_BATCH);
      await runTx(this.db, 'rw', this.db.proposals, async () => void (await this.db.proposals.bulkPut(batch)), {
        ...this.tx,
        label: 'saving cleaning proposals',
      });
      await onBatch?.(Math.min(records.length, at + WRITE_BATCH));
    }
  }

  /** Drops the pending proposals of every sweep but `sweepId`. */
  async retire(sweepId: string): Promise<number> {
    return runTx(
      this.db,
      'rw',
      this.db.proposals,
      () =>
        this.db.proposals
          .where('status')
          .equals('pending')
          .filter((p) => p.sweepId !== sweepId)
          .delete(),
      { ...this.tx, label: 'retiring old cleaning proposals' },
    );
  }

  get(id: string): Promise<ProposalRecord | undefined> {
    return withStoreTimeout(this.db.proposals.get(id), { ...this.tx, label: 'reading a proposal' });
  }

  pendingOfType(type: ProposalType): Promise<ProposalRecord[]> {
    return withStoreTimeout(this.db.proposals.where('[status+type]').equals(['pending', type]).toArray(), {
      ...this.tx,
      label: 'reading cleaning proposals',
    });
  }

  dismiss(id: string, now: number): Promise<void> {
    return runTx(
      this.db,
      'rw',
      this.db.proposals,
      async () => {
        const proposal = await this.db.proposals.get(id);
        if (!proposal || proposal.status !== 'pending') return;
        await this.db.proposals.put({ ...proposal, status: 'dismissed', decidedAt: now });
      },
      { ...this.tx, label: 'dismissing a proposal' },
    );
  }
}
