import type { ChunkRecord } from '../core/records';
import { vectorsOfRecords } from './vectors-repo';
import type { VaultDb } from './schema';
import { runTx, withStoreTimeout, type TxOptions } from './transaction';
import { readAhead } from './paging';

/** Rows per page when walking the whole table (bounded memory, one short transaction each). */
export const CHUNK_PAGE = 2_000;

/** What one re-chunking changes: rows to write and ids to remove (with every vector of them). */
export interface ChunkChange {
  put: ChunkRecord[];
  remove: string[];
  /** Chunks kept under their id whose embedded text changed: their vectors are stale. */
  stale: string[];
}

/** Chunks (the retrieval units of messages and resources) and the vectors sealed to them. */
export class ChunksRepo {
  constructor(
    private readonly db: VaultDb,
    private readonly tx: TxOptions = {},
  ) {}

  forConversation(conversationId: string): Promise<ChunkRecord[]> {
    return withStoreTimeout(this.db.chunks.where('conversationId').equals(conversationId).toArray(), {
      ...this.tx,
      label: 'reading the chunks of a conversation',
    });
  }

  forParent(parentId: string): Promise<ChunkRecord[]> {
    return withStoreTimeout(this.db.chunks.where('parentId').equals(parentId).toArray(), { ...this.tx, label: 'reading chunks' });
  }

  async get(ids: readonly string[]): Promise<ChunkRecord[]> {
    const rows = await withStoreTimeout(this.db.chunks.bulkGet(ids.slice()), { ...this.tx, label: 'reading chunks' });
    return rows.filter((row): row is ChunkRecord => row !== undefined);
  }

  count(): Promise<number> {
    return withStoreTimeout(this.db.chunks.count(), { ...this.tx, label: 'counting chunks' });
  }

  /** Every chunk's id, without reading the rows (one key read). */
  ids(): Promise<string[]> {
    return withStoreTimeout(this.db.chunks.toCollection().primaryKeys(), { ...this.tx, label: 'listing chunks' });
  }

  /** Every chunk, a page at a time, in id order (the next page read ahead: `readAhead`). */
  pages(size = CHUNK_PAGE): AsyncGenerator<ChunkRecord[]> {
    return readAhead(
      (last) =>
        withStoreTimeout(
          last === null
            ? this.db.chunks.orderBy(':id').limit(size).toArray()
            : this.db.chunks.where(':id').above(last.id).limit(size).toArray(),
          { ...this.tx, label: 'reading chunks' },
        ),
      size,
    );
  }

  /** Writes one change in one transaction: removed and stale chunks lose their vectors with it. */
  apply(change: ChunkChange): Promise<void> {
    if (change.put.length === 0 && change.remove.length === 0) return Promise.resolve();
    return runTx(
      this.db,
      'rw',
      [this.db.chunks, this.db.vectors],
      async () => {
        const dropVectors = [...change.remove, ...change.stale];
        if (dropVectors.length) await vectorsOfRecords(this.db, dropVectors).delete();
        if (change.remove.length) await this.db.chunks.bulkDelete(change.remove);
        if (change.put.length) await this.db.chunks.bulkPut(change.put);
      },
      { ...this.tx, label: 'saving chunks' },
    );
  }
}
