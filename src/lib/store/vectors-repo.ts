import Dexie, { type Collection, type IndexableType } from 'dexie';
import type { VectorRecord } from '../core/records';
import type { VaultDb } from './schema';
import { runTx, withStoreTimeout, type TxOptions } from './transaction';
import { readAhead } from './paging';

/**
 * Every vector of these records, whatever the embedder: a record id is the first part of the
 * primary key [recordId+modelId], so each record is one key range (schema 10 dropped the `recordId`
 * index that did this, one more entry written with every vector).
 */
export function vectorsOfRecords(db: VaultDb, recordIds: readonly string[]): Collection<VectorRecord, [string, string]> {
  const ranges = [...new Set(recordIds)].map((id): [IndexableType, IndexableType] => [
    [id, Dexie.minKey],
    [id, Dexie.maxKey],
  ]);
  return db.vectors.where(':id').inAnyRange(ranges, { includeLowers: true, includeUppers: true });
}

/**
 * Stored vectors, one row per (record, embedder). Rows are the truth a persisted vector index is
 * verified against and rebuilt from; every row carries the label it has in that index.
 */
export class VectorsRepo {
  constructor(
    private readonly db: VaultDb,
    private readonly tx: TxOptions = {},
  ) {}

  put(rows: readonly VectorRecord[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    return runTx(this.db, 'rw', this.db.vectors, async () => void (await this.db.vectors.bulkPut(rows.slice())), {
      ...this.tx,
      label: 'saving vectors',
    });
  }

  async get(modelId: string, recordIds: readonly string[]): Promise<VectorRecord[]> {
    const rows = await withStoreTimeout(this.db.vectors.bulkGet(recordIds.map((id) => [id, modelId] as [string, string])), {
      ...this.tx,
      label: 'reading vectors',
    });
    return rows.filter((row): row is VectorRecord => row !== undefined);
  }

  /**
   * The rows of a model. IndexedDB counts by walking, and in Chromium the table's own count walks
   * faster than a range of its `modelId` index (at 322,707 rows, 2026-11-30: 1.5-1.6 s against
   * 2.3-3.3 s), so when no other model has rows (the usual case) the table is counted. Whether
   * another has is one seek on each side of the model's range (a list of the models, `uniqueKeys`,
   * walks every index entry: 2.4 s). One read transaction: the check and the count agree.
   */
  count(modelId: string): Promise<number> {
    const { vectors } = this.db;
    return runTx(
      this.db,
      'r',
      vectors,
      async () => {
        const [below, above] = await Promise.all([
          vectors.where('modelId').below(modelId).limit(1).primaryKeys(),
          vectors.where('modelId').above(modelId).limit(1).primaryKeys(),
        ]);
        return below.length + above.length === 0 ? vectors.count() : vectors.where('modelId').equals(modelId).count();
      },
      { ...this.tx, label: 'counting vectors' },
    );
  }

  /** record id -> label of every vector of a model, read from the index alone (no vectors loaded). */
  labels(modelId: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    return withStoreTimeout(
      this.db.vectors
        .where('[modelId+label]')
        .between([modelId, -Infinity], [modelId, Infinity])
        .eachKey((key, cursor) => {
          const [recordId] = cursor.primaryKey as unknown as [string, string];
          out.set(recordId, (key as unknown as [string, number])[1]);
        })
        .then(() => out),
      { ...this.tx, label: 'reading vector labels' },
    );
  }

  /** Vectors of a model whose label is `fromLabel` or above, in label order (written after a save). */
  since(modelId: string, fromLabel: number): Promise<VectorRecord[]> {
    return withStoreTimeout(
      this.db.vectors.where('[modelId+label]').between([modelId, fromLabel], [modelId, Infinity], true, true).toArray(),
      {
        ...this.tx,
        label: 'reading new vectors',
      },
    );
  }

  /** Vectors of a model in label order, after `afterLabel` (the first page of `pages`). */
  private page(modelId: string, afterLabel: number, limit: number): Promise<VectorRecord[]> {
    return withStoreTimeout(
      this.db.vectors.where('[modelId+label]').between([modelId, afterLabel], [modelId, Infinity], false, true).limit(limit).toArray(),
      { ...this.tx, label: 'reading vectors' },
    );
  }

  /**
   * Every vector of a model in label order, a page at a time (the next page read ahead: `readAhead`).
   * Rows can share a label (merged in from another device's vault file, before a rebuild relabels
   * them), so a page starts at the last page's last label, past the rows of that label already read
   * (the index orders them by primary key), rather than after the label.
   */
  pages(modelId: string, size: number): AsyncGenerator<VectorRecord[]> {
    /** Rows already read whose label is the last row's. */
    let atLast = 0;
    return readAhead(async (last) => {
      const rows =
        last === null
          ? await this.page(modelId, -Infinity, size)
          : await withStoreTimeout(
              this.db.vectors
                .where('[modelId+label]')
                .between([modelId, last.label], [modelId, Infinity], true, true)
                .offset(atLast)
                .limit(size)
                .toArray(),
              { ...this.tx, label: 'reading vectors' },
            );
      const tail = rows[rows.length - 1];
      if (tail) {
        let same = 0;
        while (same < rows.length && rows[rows.length - 1 - same]!.label === tail.label) same++;
        atLast = same === rows.length && last !== null && last.label === tail.label ? atLast + same : same;
      }
      return rows;
    }, size);
  }

  deleteModel(modelId: string): Promise<number> {
    return runTx(this.db, 'rw', this.db.vectors, () => this.db.vectors.where('modelId').equals(modelId).delete(), {
      ...this.tx,
      label: 'removing the vectors of an embedder',
    });
  }

  /** Vectors of records that are no longer indexed, for every embedder. */
  deleteRecords(recordIds: readonly string[]): Promise<number> {
    if (recordIds.length === 0) return Promise.resolve(0);
    return runTx(this.db, 'rw', this.db.vectors, () => vectorsOfRecords(this.db, recordIds).delete(), {
      ...this.tx,
      label: 'removing vectors',
    });
  }

  /** Record ids that have a vector of any embedder. */
  async recordIds(): Promise<string[]> {
    // The primary keys are [recordId, modelId] in order: a record's rows are adjacent.
    const keys = await withStoreTimeout(this.db.vectors.toCollection().primaryKeys(), { ...this.tx, label: 'listing vector records' });
    const out: string[] = [];
    for (const [recordId] of keys) if (out[out.length - 1] !== recordId) out.push(recordId);
    return out;
  }

  /** Embedder ids that have stored vectors. */
  async models(): Promise<string[]> {
    const keys = await withStoreTimeout(this.db.vectors.orderBy('modelId').uniqueKeys(), { ...this.tx, label: 'listing vector models' });
    return keys.map(String);
  }
}
