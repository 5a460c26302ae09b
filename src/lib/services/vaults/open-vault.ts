/**
 * How a worker opens its vault: it holds the vault's "open" lock (shared) for as long as it lives,
 * then checks the registry still lists the vault, then opens its database. A deletion takes the same
 * lock exclusively (vaults-service.ts), so a vault is never deleted under a worker that has it open,
 * and a worker that starts while a vault is being deleted waits, finds it gone and fails instead of
 * creating an empty database under the deleted vault's name.
 */
import { fail } from '../../core/errors';
import { openVault, type Vault } from '../../store/vault';
import { VaultRegistry } from '../../store/vault-registry';
import { holdLock, vaultOpenLockName } from '../locks';

export interface OpenRegisteredOptions {
  locks: LockManager | undefined;
  registry?: VaultRegistry;
}

export async function openRegisteredVault(dbName: string, options: OpenRegisteredOptions): Promise<Vault> {
  // Held until the worker ends: the lock outlives this function on purpose.
  await holdLock(options.locks, vaultOpenLockName(dbName), { mode: 'shared' });
  const registry = options.registry ?? new VaultRegistry();
  try {
    const entry = await registry.byDbName(dbName);
    if (!entry) return fail('vaults/not-found', 'This vault was deleted; switch to another vault.', { dbName });
  } finally {
    if (!options.registry) registry.close();
  }
  return openVault(dbName);
}
