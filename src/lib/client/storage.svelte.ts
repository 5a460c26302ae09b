import { vaultViews } from '../store/views/vault-views';
import { vaultWorker } from './vault-worker';

/**
 * Storage persistence and quota. The browser may evict a non-persisted origin's data under
 * pressure; persistence is asked for after the first import (when there is something to lose).
 */
class StorageStatus {
  supported = $state(false);
  persisted = $state<boolean | null>(null);
  usage = $state<number | null>(null);
  quota = $state<number | null>(null);
  lastRequest = $state<'granted' | 'denied' | null>(null);

  async refresh(): Promise<void> {
    const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
    this.supported = Boolean(storage?.estimate);
    if (!storage) return;
    const [estimate, persisted] = await Promise.all([storage.estimate?.(), storage.persisted?.()]);
    this.usage = estimate?.usage ?? null;
    this.quota = estimate?.quota ?? null;
    this.persisted = persisted ?? null;
  }

  /** Asks the browser to keep the vault's data; remembers that it asked. */
  async requestPersistence(): Promise<boolean> {
    const granted = (await navigator.storage?.persist?.()) ?? false;
    this.lastRequest = granted ? 'granted' : 'denied';
    await vaultWorker().call('setPreference', ['storage.persistRequested', true]);
    await this.refresh();
    return granted;
  }

  /** Called when an import finishes: the first time there is data, ask for persistence once. */
  async afterImport(): Promise<void> {
    if (await (await vaultViews()).setting('storage.persistRequested')) return;
    await this.requestPersistence();
  }
}

export const storageStatus = new StorageStatus();
