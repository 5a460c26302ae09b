import type { VaultEntry } from '../core/api/vaults';
import { vaultWorker } from './vault-worker';

/*
 * What the vault switcher asks of the registry, through this tab's vault worker (the page never
 * writes a database itself). Deleting asks for the vault's name as typed; the worker refuses the
 * vault open in this tab, the last vault, and a vault open in another tab.
 */

export function createVault(name: string): Promise<VaultEntry> {
  return vaultWorker().call('createVault', [name]);
}

export function renameVault(id: string, name: string): Promise<VaultEntry> {
  return vaultWorker().call('renameVault', [id, name]);
}

export function deleteVault(id: string, typedName: string): Promise<void> {
  return vaultWorker().call('deleteVault', [id, typedName], 5 * 60_000);
}

/** Marks a vault as the last used (this tab opened it, or something was imported or captured into it). */
export function touchVault(id: string): Promise<void> {
  return vaultWorker().call('touchVault', [id]);
}
