import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { PERSONAL_DB_NAME, PERSONAL_SYNC_FILE } from '../../../src/lib/core/api/vaults';
import { checkVaultName, syncFileNameFor, vaultSlug } from '../../../src/lib/core/vaults/vault-name';
import { VaultDb } from '../../../src/lib/store/schema';
import { openVault } from '../../../src/lib/store/vault';
import { VaultRegistry } from '../../../src/lib/store/vault-registry';
import { openRegisteredVault } from '../../../src/lib/services/vaults/open-vault';
import { chunk, conversation, message, note } from '../../factories/records';

let n = 0;
const freshRegistry = () => new VaultRegistry(`registry-test-${process.pid}-${++n}`);

describe('vault names', () => {
  it('trims, refuses empty, long, control characters and a taken name (case-insensitively)', () => {
    expect(checkVaultName('  Work   stuff ', [], { newVault: true })).toEqual({ ok: true, value: 'Work stuff' });
    expect(checkVaultName('   ', [], { newVault: true }).ok).toBe(false);
    expect(checkVaultName('x'.repeat(41), [], { newVault: true }).ok).toBe(false);
    expect(checkVaultName('a\u0007b', [], { newVault: true }).ok).toBe(false);
    const others = [{ name: 'Work', syncFileName: syncFileNameFor('Work') }];
    expect(checkVaultName('work', others, { newVault: true }).ok).toBe(false);
    // "Work!" is another name but would share Work's sync file: refused for a new vault only.
    expect(checkVaultName('Work!', others, { newVault: true }).ok).toBe(false);
    expect(checkVaultName('Work!', others, { newVault: false }).ok).toBe(true);
  });

  it('slugs to letters, digits and hyphens', () => {
    expect(vaultSlug('Café Ünïcode — 2024')).toBe('cafe-unicode-2024');
    expect(vaultSlug('!!!')).toBe('vault');
  });
});

describe('the vault registry', () => {
  it('reads an empty registry as Personal, on the database every earlier release used, without writing', async () => {
    const registry = freshRegistry();
    const peeked = await registry.peek();
    expect(peeked).toHaveLength(1);
    expect(peeked[0]).toMatchObject({ id: 'personal', name: 'Personal', dbName: PERSONAL_DB_NAME, syncFileName: PERSONAL_SYNC_FILE });
    expect(await registry.table.count()).toBe(0);
    await registry.list();
    expect(await registry.table.count()).toBe(1);
    registry.close();
  });

  it('creates vaults with their own database and sync file, renames keeping both, refuses duplicates', async () => {
    const registry = freshRegistry();
    const work = await registry.create('Work', 10);
    expect(work.dbName).not.toBe(PERSONAL_DB_NAME);
    expect(work.dbName.startsWith(`${PERSONAL_DB_NAME}-`)).toBe(true);
    expect(work.syncFileName).toBe('engram-vault-work.engram');
    await expect(registry.create('WORK')).rejects.toMatchObject({ code: 'vaults/invalid-name' });
    const renamed = await registry.rename(work.id, 'Job');
    expect(renamed).toMatchObject({ name: 'Job', dbName: work.dbName, syncFileName: work.syncFileName });
    await expect(registry.rename(work.id, 'personal')).rejects.toMatchObject({ code: 'vaults/invalid-name' });
    expect((await registry.list()).map((v) => v.name)).toEqual(['Personal', 'Job']);
    await registry.touch(work.id, Date.now() + 1000);
    expect((await registry.lastUsed()).id).toBe(work.id);
    registry.close();
  });
});

describe('upgrade from the release before separate vaults', () => {
  it('the existing vault becomes Personal with nothing lost', async () => {
    // A database written by the current release's code, under the name that release always used.
    const seed: Record<string, unknown[]> = {
      conversations: [conversation()],
      messages: [message(), message({ id: 'msg-2', ordinal: 1, role: 'assistant', text: 'In late winter.' })],
      notes: [note()],
      chunks: [chunk()],
      settings: [{ key: 'vault.id', value: 'vault-1' }],
    };
    await Dexie.delete(PERSONAL_DB_NAME);
    const old = new VaultDb(PERSONAL_DB_NAME);
    await old.open();
    for (const [table, rows] of Object.entries(seed)) await old.table(table).bulkAdd(rows);
    old.close();

    const registry = freshRegistry();
    const vault = await openRegisteredVault(PERSONAL_DB_NAME, { locks: undefined, registry });
    expect((await registry.list()).map((v) => [v.name, v.dbName])).toEqual([['Personal', PERSONAL_DB_NAME]]);
    for (const [table, rows] of Object.entries(seed)) {
      expect(await vault.db.table(table).toArray(), table).toEqual(expect.arrayContaining(rows));
    }
    vault.db.close();
    registry.close();
    await Dexie.delete(PERSONAL_DB_NAME);
  });

  it('a worker never opens (and so never creates) a vault the registry does not list', async () => {
    const registry = freshRegistry();
    const name = `unlisted-${process.pid}-${Date.now()}`;
    await expect(openRegisteredVault(name, { locks: undefined, registry })).rejects.toMatchObject({ code: 'vaults/not-found' });
    expect(await Dexie.exists(name)).toBe(false);
    const listed = await registry.create('Listed');
    const vault = await openRegisteredVault(listed.dbName, { locks: undefined, registry });
    expect(vault.db.name).toBe(listed.dbName);
    vault.db.close();
    registry.close();
    // openVault is what opens it: the registry only decides whether it may.
    expect(typeof openVault).toBe('function');
  });
});
