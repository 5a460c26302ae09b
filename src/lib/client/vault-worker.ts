import type { VaultApi } from '../core/api/vault-api';
import { errors } from './errors.svelte';
import { RpcClient } from './rpc';

let client: RpcClient<VaultApi> | null = null;

/**
 * The page's one client of the vault worker (workers/vault.worker.ts): the vault file, and every
 * write of notes and preferences. Started on first use.
 */
export function vaultWorker(): RpcClient<VaultApi> {
  client ??= new RpcClient<VaultApi>({
    name: 'vault worker',
    timeoutMs: 60_000,
    spawn: () => new Worker(new URL('../../../workers/vault.worker.ts', import.meta.url), { type: 'module', name: 'vault' }),
    onRestart: (reason) => errors.report(reason, 'the vault worker'),
  });
  return client;
}
