import type { ImportApi } from '../core/api/import';
import { RpcClient } from './rpc';

let client: RpcClient<ImportApi> | null = null;

/** The page's one client of the import worker (export files and captured chats). Started on first use. */
export function importWorker(): RpcClient<ImportApi> {
  client ??= new RpcClient<ImportApi>({
    name: 'import worker',
    timeoutMs: 60_000,
    spawn: () => new Worker(new URL('../../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'import' }),
  });
  return client;
}
