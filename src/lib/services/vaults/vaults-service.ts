/**
 * Creating, renaming, marking and deleting vaults (core/api/vaults.ts `VaultsApi`), as the vault
 * worker runs it. The registry is its own small database; a vault's own data is touched only to
 * write its name (the `vault.name` setting travels in its file) and, on deletion, to remove it whole.
 */
import type { VaultEntry, VaultsApi } from '../../core/api/vaults';
import { fail } from '../../core/errors';
import { normalizeVaultName } from '../../core/vaults/vault-name';
import { deleteVaultDatabase, openVault } from '../../store/vault';
import { VaultRegistry } from '../../store/vault-registry';
import { forgetIndexScope, INDEX_CACHE_DB } from '../../store/vector-index-manifest';
import { deleteHnswFiles } from '../../store/vector-index-runtime';
import { indexFileName } from '../../store/vector-index';
import { indexName } from '../index/model-index';
import { holdLock, vaultOpenLockName } from '../locks';

export interface VaultsServiceOptions {
  /** The vault this worker is bound to (it cannot delete itself). */
  boundDbName: string;
  locks: LockManager | undefined;
  registry?: VaultRegistry;
  /** The index cache database (default the app's). */
  indexCacheDb?: string;
  now?: () => number;
}

/** Writes a vault's name into its own settings (a short connection of its own). */
async function writeName(dbName: string, name: string): Promise<void> {
  const vault = await openVault(dbName);
  try {
    if ((await vault.settings.get('vault.name')) !== name) await vault.settings.set('vault.name', name);
  } finally {
    vault.db.close();
  }
}

export class VaultsService implements VaultsApi {
  readonly #registry: VaultRegistry;
  readonly #now: () => number;

  constructor(private readonly options: VaultsServiceOptions) {
    this.#registry = options.registry ?? new VaultRegistry();
    this.#now = options.now ?? Date.now;
  }

  async createVault(name: string): Promise<VaultEntry> {
    const entry = await this.#registry.create(name, this.#now());
    await writeName(entry.dbName, entry.name);
    return entry;
  }

  async renameVault(id: string, name: string): Promise<VaultEntry> {
    const entry = await this.#registry.rename(id, name);
    await writeName(entry.dbName, entry.name);
    return entry;
  }

  async touchVault(id: string): Promise<void> {
    await this.#registry.touch(id, this.#now());
  }

  async deleteVault(id: string, typedName: string): Promise<void> {
    const vaults = await this.#registry.list();
    const entry = vaults.find((v) => v.id === id);
    if (!entry) return fail('vaults/not-found', 'That vault no longer exists.');
    if (normalizeVaultName(typedName) !== entry.name)
      return fail('vaults/invalid-name', `Type the vault's name exactly ("${entry.name}") to delete it.`);
    if (entry.dbName === this.options.boundDbName)
      return fail('vaults/in-use', `"${entry.name}" is the vault open in this tab: switch to another vault first.`);
    if (vaults.length === 1) return fail('vaults/in-use', 'The last vault cannot be deleted.');
    const hold = await holdLock(this.options.locks, vaultOpenLockName(entry.dbName), { ifAvailable: true });
    if (!hold) return fail('vaults/in-use', `"${entry.name}" is open in another tab: switch that tab to another vault, then delete it.`);
    try {
      // The entry goes first: a worker waiting for the open lock finds the vault gone, never an empty database.
      await this.#registry.remove(entry.id);
      await deleteVaultDatabase(entry.dbName);
      const scope = entry.dbName;
      const manifests = await forgetIndexScope(
        scope,
        (m) => m.name === indexName(scope, m.modelId),
        this.options.indexCacheDb ?? INDEX_CACHE_DB,
      );
      await deleteHnswFiles(manifests.map(indexFileName));
    } finally {
      hold.release();
    }
  }
}

/** At a worker's start: the bound vault's own `vault.name` follows the registry. */
export async function syncVaultName(dbName: string, registry: VaultRegistry = new VaultRegistry()): Promise<void> {
  const entry = await registry.byDbName(dbName);
  if (entry) await writeName(entry.dbName, entry.name);
}
