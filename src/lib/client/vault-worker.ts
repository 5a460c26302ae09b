import type { VaultApi } from '../core/api/vault-api';
import { vaultWorkerName } from '../core/api/vaults';
import { errors } from './errors.svelte';
import { RpcClient } from './rpc';
import { vaultSession } from './vault-session.svelte';

let client: RpcClient<VaultApi> | null = null;

/**
 * The page's one client of the vault worker (workers/vault.worker.ts) of this tab's vault: the vault
 * file, every write of notes and preferences, and the registry of vaults. Started on first use.
 */
export function vaultWorker(): RpcClient<VaultApi> {
  client ??= new RpcClient<VaultApi>({
    name: 'vault worker',
    timeoutMs: 60_000,
    spawn: () =>
      new Worker(new URL('../../../workers/vault.worker.ts', import.meta.url), {
        type: 'module',
        name: vaultWorkerName('vault', vaultSession.dbName),
      }),
    onRestart: (reason) => errors.report(reason, 'the vault worker'),
  });
  return client;
}
