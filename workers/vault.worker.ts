/// <reference lib="webworker" />
// The Trusted Types default policy of this worker, first (src/lib/trusted-types.ts).
import '../src/lib/trusted-types';
import { version } from '../package.json';
import { CURRENT_SCHEMA_VERSION } from '../src/lib/store/schema';
import { VaultRegistry } from '../src/lib/store/vault-registry';
import { NotesService } from '../src/lib/services/notes/notes-service';
import { PreferencesService } from '../src/lib/services/notes/preferences-service';
import { createVaultFileService } from '../src/lib/services/vault-file/vault-file-service';
import { openRegisteredVault } from '../src/lib/services/vaults/open-vault';
import { syncVaultName, VaultsService } from '../src/lib/services/vaults/vaults-service';
import { boundDbName, workerLocks } from './bound-vault';
import { exposeApis } from './expose';

/*
 * The vault worker: the vault file (export, restore, merge, the sync folder; key derivation
 * included), the writes the screens ask for (notes: keep, discard, undo, curation; preferences) and
 * the registry of vaults (create, rename, delete another vault), off the page's thread and on one
 * connection, so a person's edit never interleaves with a merge. Its hybrid logical clock observes
 * the stamps of every merged file. It serves the one vault it was started for.
 */
const dbName = boundDbName();
const locks = workerLocks();
const registry = new VaultRegistry();
const opening = openRegisteredVault(dbName, { locks, registry }).then(async (vault) => {
  await syncVaultName(dbName, registry);
  return vault;
});
const vault = () => opening;
const syncFileName = registry.byDbName(dbName).then((entry) => entry?.syncFileName ?? `${dbName}.engram`);
// Awaited by the first sync; a failure shows there, not as an unhandled rejection now.
syncFileName.catch(() => undefined);

exposeApis([
  {
    async ready() {
      await opening;
      return { schemaVersion: CURRENT_SCHEMA_VERSION };
    },
    async ping() {
      return 'pong';
    },
  },
  createVaultFileService(opening, { appVersion: version, locks, syncFileName }),
  new NotesService(vault),
  new PreferencesService(vault),
  new VaultsService({ boundDbName: dbName, locks, registry }),
]);
