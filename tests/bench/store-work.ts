import { ConversationsRepo } from '../../src/lib/store/conversations-repo';
import { VaultDb } from '../../src/lib/store/schema';
import { makeMessageRows } from '../factories/message-rows';
import { allMessages } from '../../src/lib/store/messages-store';

export interface StoreTiming {
  rows: number;
  putMs: number;
  readMs: number;
}

/**
 * Bulk insert of `count` message rows through the repository's batched write path, then a full
 * read back. The same code runs in Node (fake-indexeddb) and in Chromium (real IndexedDB).
 */
export async function timeStoreRoundTrip(count: number, now: () => number): Promise<StoreTiming> {
  const rows = makeMessageRows(count);
  const db = new VaultDb(`bench-store-${count}-${Math.random().toString(36).slice(2)}`);
  await db.open();
  try {
    const repo = new ConversationsRepo(db, { timeoutMs: 600_000 });
    const t0 = now();
    await repo.putMessages(rows);
    const t1 = now();
    const back = await allMessages(db);
    const t2 = now();
    if (back.length !== count) throw new Error(`read ${back.length} rows, expected ${count}`);
    return { rows: count, putMs: t1 - t0, readMs: t2 - t1 };
  } finally {
    db.close();
    await db.delete();
  }
}
