import type { ChunkRecord, NoteRecord } from '../core/records';
import type { VaultDb } from './schema';
import { runTx, type TxOptions } from './transaction';

/** One read recall wrote back, or one item of a package the person copied. */
export interface ReadWrite {
  id: string;
  kind: 'note' | 'chunk';
  at: number;
}

type Counted = Pick<NoteRecord, 'accessCount' | 'lastAccessedAt' | 'copyCount' | 'lastCopiedAt'> | ChunkRecord;

/**
 * Reads and copies of notes and chunks. A read is not an edit: no history entry and no new clock
 * stamp, so a merge never prefers a version for having been read (the same holds for chunks, which
 * an index update re-chunks keeping these counts). Ids of records that are gone are skipped.
 * - a read (recall showed it): the access count grows by one and the last access moves forward;
 *   this lengthens the half-life of the memory's confidence tier (core/recall/scoring.ts);
 * - a copy (the person copied a package holding it into a prompt): the copy count grows, the
 *   signal promotion is defined on (core/curate/promotion.ts).
 */
export class ReadsRepo {
  constructor(
    private readonly db: VaultDb,
    private readonly tx: TxOptions = {},
  ) {}

  recordReads(writes: readonly ReadWrite[]): Promise<number> {
    return this.#count(writes, 'recording reads', (row, at) => {
      row.accessCount = (row.accessCount ?? 0) + 1;
      row.lastAccessedAt = Math.max(row.lastAccessedAt ?? 0, at);
    });
  }

  recordCopies(writes: readonly ReadWrite[]): Promise<number> {
    return this.#count(writes, 'recording copied packages', (row, at) => {
      row.copyCount = (row.copyCount ?? 0) + 1;
      row.lastCopiedAt = Math.max(row.lastCopiedAt ?? 0, at);
    });
  }

  #count(writes: readonly ReadWrite[], label: string, bump: (row: Counted, at: number) => void): Promise<number> {
    if (writes.length === 0) return Promise.resolve(0);
    const { db } = this;
    return runTx(
      db,
      'rw',
      [db.notes, db.chunks],
      async () => {
        let updated = 0;
        for (const { id, kind, at } of writes) {
          const table = kind === 'note' ? db.notes : db.chunks;
          updated += await (table as typeof db.notes)
            .where('id')
            .equals(id)
            .modify((row) => bump(row, at));
        }
        return updated;
      },
      { ...this.tx, label },
    );
  }
}
