import type { ImportApi } from '../core/api/import';
import { vaultWorkerName } from '../core/api/vaults';
import { RpcClient } from './rpc';
import { vaultSession } from './vault-session.svelte';

/** Clients by vault database (not reactive state). */
const clients = new Map<string, RpcClient<ImportApi>>();

/**
 * The page's client of the import worker of a vault (export files and captured chats): this tab's
 * vault by default, or the vault the person chose on the Import or Capture page. Each vault has its
 * own worker, bound to its database. Started on first use.
 */
export function importWorker(dbName: string = vaultSession.dbName): RpcClient<ImportApi> {
  let client = clients.get(dbName);
  if (!client) {
    client = new RpcClient<ImportApi>({
      name: 'import worker',
      timeoutMs: 60_000,
      spawn: () =>
        new Worker(new URL('../../../workers/import.worker.ts', import.meta.url), {
          type: 'module',
          name: vaultWorkerName('import', dbName),
        }),
    });
    clients.set(dbName, client);
  }
  return client;
}
