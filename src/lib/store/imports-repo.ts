import type { ImportRecord } from '../core/records';
import type { VaultDb } from './schema';
import { runTx, withStoreTimeout, type TxOptions } from './transaction';

/** One row per import, with its report. */
export class ImportsRepo {
  constructor(
    private readonly db: VaultDb,
    private readonly tx: TxOptions = {},
  ) {}

  put(row: ImportRecord): Promise<void> {
    return runTx(this.db, 'rw', this.db.imports, async () => void (await this.db.imports.put(row)), {
      ...this.tx,
      label: 'saving an import report',
    });
  }

  get(id: string): Promise<ImportRecord | undefined> {
    return withStoreTimeout(this.db.imports.get(id), { ...this.tx, label: 'reading an import report' });
  }

  recent(limit = 20): Promise<ImportRecord[]> {
    return withStoreTimeout(this.db.imports.orderBy('startedAt').reverse().limit(limit).toArray(), {
      ...this.tx,
      label: 'listing imports',
    });
  }

  count(): Promise<number> {
    return withStoreTimeout(this.db.imports.count(), { ...this.tx, label: 'counting imports' });
  }
}
