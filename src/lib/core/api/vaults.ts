/**
 * Separate vaults. A person keeps several named vaults ("Personal", "Work", ...); each is its own
 * IndexedDB database with its own index, jobs, notes, settings, vault file and sync folder, and
 * nothing crosses them. The registry (store/vault-registry.ts, a small database of its own) lists
 * them; every worker is bound to one vault database by its name (`vaultWorkerName`), so a worker
 * cannot open another vault by mistake.
 */
import { SYNC_FILE_NAME } from './vault-file';

export interface VaultEntry {
  /** Stable id ('personal' for the vault that existed before vaults were separate). */
  id: string;
  /** Shown everywhere; unique, case-insensitively. */
  name: string;
  /** The IndexedDB database of this vault (also the scope of its saved indexes and lock names). */
  dbName: string;
  /** The file this vault syncs with in a sync folder (fixed at creation: a rename keeps it). */
  syncFileName: string;
  createdAt: number;
  /** Last switched to, imported or captured into: the vault preselected when the app asks which. */
  lastUsedAt: number;
}

/** The vault every install had before vaults were separate: its database keeps its old name. */
export const PERSONAL_VAULT_ID = 'personal';
export const PERSONAL_VAULT_NAME = 'Personal';
export const PERSONAL_DB_NAME = 'engram-vault';
export const PERSONAL_SYNC_FILE = SYNC_FILE_NAME;

export const MAX_VAULT_NAME = 40;

/** What the vault worker offers about the registry (the page reads the list through store/views). */
export interface VaultsApi {
  createVault(name: string): Promise<VaultEntry>;
  renameVault(id: string, name: string): Promise<VaultEntry>;
  /** Marks a vault as the last used one (switching, importing or capturing into it). */
  touchVault(id: string): Promise<void>;
  /**
   * Deletes a vault: its database, its saved indexes and its registry entry. `typedName` must be the
   * vault's name exactly (the person typed it). Refused for the vault this worker is bound to, for
   * the last vault, and while any tab has the vault open.
   */
  deleteVault(id: string, typedName: string): Promise<void>;
}

const WORKER_NAME_SEPARATOR = '@';

/** The `name` a vault-bound worker is started with: its role and the vault database it serves. */
export function vaultWorkerName(role: string, dbName: string): string {
  return `${role}${WORKER_NAME_SEPARATOR}${dbName}`;
}

/** The vault database a worker was started for (from its `name`); null when the name names none. */
export function dbNameOfWorker(workerName: string): string | null {
  const at = workerName.indexOf(WORKER_NAME_SEPARATOR);
  if (at <= 0) return null;
  const dbName = workerName.slice(at + 1);
  return dbName === '' ? null : dbName;
}

/** Lock and channel names that concern one vault carry its database name. */
export function vaultScoped(name: string, dbName: string): string {
  return `${name}:${dbName}`;
}
