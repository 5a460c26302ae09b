/// <reference lib="webworker" />
// The Trusted Types default policy of this worker, first (src/lib/trusted-types.ts).
import '../src/lib/trusted-types';
import { version } from '../package.json';
import type { VaultFileApi } from '../src/lib/core/api/vault-file';
import { CURRENT_SCHEMA_VERSION } from '../src/lib/store/schema';
import { openVault } from '../src/lib/store/vault';
import { exposeApi } from './expose';
import { createVaultFileService } from './vault-file-service';

/*
 * The vault-file worker: export, restore, merge and the sync folder run here, off the page's
 * thread, key derivation (Argon2id) included. It has its own connection to the vault database
 * and its own hybrid logical clock, which observes the stamps of every merged file.
 */
const opening = openVault();
const service = createVaultFileService(opening, {
  appVersion: version,
  locks: (self.navigator as Navigator | undefined)?.locks,
});

const api: VaultFileApi = {
  async ready() {
    await opening;
    return { schemaVersion: CURRENT_SCHEMA_VERSION };
  },
  async ping() {
    return 'pong';
  },
  // Listed one by one: the service's methods live on its prototype, which a spread would not copy.
  status: (check) => service.status(check),
  snoozeReminder: () => service.snoozeReminder(),
  fingerprint: () => service.fingerprint(),
  exportFile: (opId, request, onProgress) => service.exportFile(opId, request, onProgress),
  importFile: (opId, request, onProgress) => service.importFile(opId, request, onProgress),
  syncFolder: (opId, folder, request, onProgress) => service.syncFolder(opId, folder, request, onProgress),
  cancel: (opId) => service.cancel(opId),
};

exposeApi(api);
