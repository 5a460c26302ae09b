/// <reference lib="webworker" />
// The Trusted Types default policy of this worker, first (src/lib/trusted-types.ts).
import '../src/lib/trusted-types';
import { ImportService } from '../src/lib/services/import/import-service';
import { openRegisteredVault } from '../src/lib/services/vaults/open-vault';
import { workerPreparer } from '../src/lib/store/prepare-worker-host';
import { boundDbName, workerLocks } from './bound-vault';
import { exposeApi } from './expose';

/*
 * The import worker: export files and captured chats, parsed and written raw-first (staged, then
 * published) off the page's thread (src/lib/services/import/import-service.ts), into the one vault
 * it was started for.
 */
const locks = workerLocks();
// A large file's conversations are made safe and hashed in a nested worker while this one parses and writes.
const preparer = () =>
  workerPreparer(() => new Worker(new URL('./prepare.worker.ts', import.meta.url), { type: 'module', name: 'prepare' }));
exposeApi(new ImportService(openRegisteredVault(boundDbName(), { locks }), locks, preparer));
