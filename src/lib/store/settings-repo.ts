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
}

export const SETTING_DEFAULTS: SettingsShape = {
  'vault.id': null,
  'vault.deviceId': null,
  'vault.firstImportAt': null,
  'jobs.paused': false,
  'storage.persistRequested': false,
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
