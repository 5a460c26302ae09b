/// <reference lib="webworker" />
// The Trusted Types default policy of this worker, first (src/lib/trusted-types.ts).
import '../src/lib/trusted-types';
import { version } from '../package.json';
import { CURRENT_SCHEMA_VERSION } from '../src/lib/store/schema';
import { openVault } from '../src/lib/store/vault';
import { NotesService } from '../src/lib/services/notes/notes-service';
import { PreferencesService } from '../src/lib/services/notes/preferences-service';
import { createVaultFileService } from '../src/lib/services/vault-file/vault-file-service';
import { exposeApis } from './expose';

/*
 * The vault worker: the vault file (export, restore, merge, the sync folder; key derivation
 * included) and the writes the screens ask for (notes: keep, discard, undo, curation; preferences),
 * off the page's thread and on one connection, so a person's edit never interleaves with a merge.
 * Its hybrid logical clock observes the stamps of every merged file.
 */
const opening = openVault();
const vault = () => opening;

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
  createVaultFileService(opening, { appVersion: version, locks: (self.navigator as Navigator | undefined)?.locks }),
  new NotesService(vault),
  new PreferencesService(vault),
]);
