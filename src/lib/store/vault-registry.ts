/**
 * The registry of vaults: a small database of its own (`engram-vaults`), separate from every vault
 * database, so listing, creating or renaming vaults never touches a vault's schema. The vault that
 * existed before vaults were separate keeps its database (`engram-vault`) and becomes "Personal" the
 * first time the registry is read: nothing is moved, so nothing can be lost.
 */
import Dexie, { type Table } from 'dexie';
import { PERSONAL_DB_NAME, PERSONAL_SYNC_FILE, PERSONAL_VAULT_ID, PERSONAL_VAULT_NAME, type VaultEntry } from '../core/api/vaults';
import { fail } from '../core/errors';
import { newId } from '../core/ids';
import { checkVaultName, syncFileNameFor } from '../core/vaults/vault-name';
import type { DbOptions } from './schema';
import { withStoreTimeout } from './transaction';

export const REGISTRY_DB_NAME = 'engram-vaults';

class RegistryDb extends Dexie {
  vaults!: Table<VaultEntry, string>;
  constructor(name: string, options: DbOptions) {
    super(name, options);
    this.version(1).stores({ vaults: 'id, &dbName, lastUsedAt' });
  }
}

/** The vault every install had before vaults were separate: same database, now named Personal. */
function personalEntry(now: number): VaultEntry {
  return {
    id: PERSONAL_VAULT_ID,
    name: PERSONAL_VAULT_NAME,
    dbName: PERSONAL_DB_NAME,
    syncFileName: PERSONAL_SYNC_FILE,
    createdAt: 0,
    lastUsedAt: now,
  };
}

/** The database name of a vault created now (never reused: a deleted vault's name may come back). */
export const newVaultDbName = (id: string): string => `${PERSONAL_DB_NAME}-${id}`;

export class VaultRegistry {
  readonly #db: RegistryDb;

  constructor(name: string = REGISTRY_DB_NAME, options: DbOptions = {}) {
    this.#db = new RegistryDb(name, options);
  }

  /** Every vault, oldest first, without writing: an empty registry reads as Personal alone. */
  async peek(now: number = Date.now()): Promise<VaultEntry[]> {
    const rows = await withStoreTimeout(this.#db.vaults.toArray(), { label: 'listing vaults' });
    if (rows.length === 0) return [personalEntry(now)];
    return rows.sort((a, b) => a.createdAt - b.createdAt || a.name.localeCompare(b.name));
  }

  /** Every vault; Personal is written in first when there is none: a registry is never empty. */
  async list(now: number = Date.now()): Promise<VaultEntry[]> {
    const rows = await withStoreTimeout(this.#db.vaults.count(), { label: 'counting vaults' });
    if (rows === 0) {
      // Two tabs may seed at once: the second add fails on the key and the first one's row stands.
      await withStoreTimeout(
        this.#db.vaults.add(personalEntry(now)).catch(() => undefined),
        { label: 'registering the Personal vault' },
      );
    }
    return this.peek(now);
  }

  async get(id: string): Promise<VaultEntry | undefined> {
    await this.list();
    return withStoreTimeout(this.#db.vaults.get(id), { label: 'reading a vault entry' });
  }

  async byDbName(dbName: string): Promise<VaultEntry | undefined> {
    await this.list();
    return withStoreTimeout(this.#db.vaults.where('dbName').equals(dbName).first(), { label: 'reading a vault entry' });
  }

  /** The vault used last (the one preselected when the app asks which). */
  async lastUsed(): Promise<VaultEntry> {
    const rows = await this.list();
    return rows.reduce((best, row) => (row.lastUsedAt > best.lastUsedAt ? row : best));
  }

  async create(name: string, now: number = Date.now()): Promise<VaultEntry> {
    // Personal is written in first, so a new vault cannot take its name.
    await this.list(now);
    return this.#db.transaction('rw', this.#db.vaults, async () => {
      const others = await this.#db.vaults.toArray();
      const checked = checkVaultName(name, others, { newVault: true });
      if (!checked.ok) return fail(checked.error.code, checked.error.message);
      const id = newId('vault').replace(/-/gu, '').slice(0, 24);
      const entry: VaultEntry = {
        id,
        name: checked.value,
        dbName: newVaultDbName(id),
        syncFileName: syncFileNameFor(checked.value),
        createdAt: now,
        lastUsedAt: now,
      };
      await this.#db.vaults.add(entry);
      return entry;
    });
  }

  async rename(id: string, name: string): Promise<VaultEntry> {
    await this.list();
    return this.#db.transaction('rw', this.#db.vaults, async () => {
      const entry = await this.#db.vaults.get(id);
      if (!entry) return fail('vaults/not-found', 'That vault no longer exists.');
      const others = (await this.#db.vaults.toArray()).filter((o) => o.id !== id);
      const checked = checkVaultName(name, others, { newVault: false });
      if (!checked.ok) return fail(checked.error.code, checked.error.message);
      const renamed = { ...entry, name: checked.value };
      await this.#db.vaults.put(renamed);
      return renamed;
    });
  }

  async touch(id: string, now: number = Date.now()): Promise<void> {
    await withStoreTimeout(this.#db.vaults.update(id, { lastUsedAt: now }), { label: 'marking the vault used' });
  }

  async remove(id: string): Promise<void> {
    await withStoreTimeout(this.#db.vaults.delete(id), { label: 'removing a vault entry' });
  }

  /** The Dexie table, for live queries of the list (store/views). */
  get table(): Table<VaultEntry, string> {
    return this.#db.vaults;
  }

  close(): void {
    this.#db.close();
  }
}
