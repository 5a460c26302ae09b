import { openVault, type Vault } from '../store/vault';

let opening: Promise<Vault> | null = null;

/**
 * The main thread's connection to the vault database, for small reads and liveQuery views.
 * Heavy work (imports, indexing, extraction) runs in workers on their own connections.
 */
export function mainVault(): Promise<Vault> {
  opening ??= openVault().then((vault) => {
    // Another tab upgrading the schema: let it, and ask for a reload rather than block it.
    vault.db.on('versionchange', () => {
      vault.db.close();
      return false;
    });
    return vault;
  });
  return opening;
}
