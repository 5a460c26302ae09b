/// <reference lib="webworker" />
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
  ...service,
};

exposeApi(api);
