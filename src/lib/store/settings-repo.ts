import type { EmbedderChoice } from '../core/api/embedder';
import type { VaultDb } from './schema';
import { runTx, withStoreTimeout, type TxOptions } from './transaction';

/** Typed key-value settings. Each key has a default, so a missing row is never an error. */
export interface SettingsShape {
  'vault.id': string | null;
  /** This device's id: the node part of every hybrid-logical-clock stamp it makes. */
  'vault.deviceId': string | null;
  'vault.firstImportAt': number | null;
  'jobs.paused': boolean;
  'storage.persistRequested': boolean;
  /** Index work paused by the person (the index worker's own queue, apart from 'jobs.paused'). */
  'index.paused': boolean;
  /** The embedder whose vector index answers searches on this device (null: the lexical one). */
  'index.serving': EmbedderChoice | null;
  /** An embedder whose index is being built in the background; it serves once complete. */
  'index.target': EmbedderChoice | null;
}

export const SETTING_DEFAULTS: SettingsShape = {
  'vault.id': null,
  'vault.deviceId': null,
  'vault.firstImportAt': null,
  'jobs.paused': false,
  'storage.persistRequested': false,
  'index.paused': false,
  'index.serving': null,
  'index.target': null,
};

export class SettingsRepo {
  constructor(
    private readonly db: VaultDb,
    private readonly tx: TxOptions = {},
  ) {}

  async get<K extends keyof SettingsShape>(key: K): Promise<SettingsShape[K]> {
    const row = await withStoreTimeout(this.db.settings.get(key), { ...this.tx, label: `reading the setting ${key}` });
    return row === undefined ? SETTING_DEFAULTS[key] : (row.value as SettingsShape[K]);
  }

  set<K extends keyof SettingsShape>(key: K, value: SettingsShape[K]): Promise<void> {
    return runTx(this.db, 'rw', this.db.settings, async () => void (await this.db.settings.put({ key, value })), {
      ...this.tx,
      label: `saving the setting ${key}`,
    });
  }
}
