import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { PERSONAL_DB_NAME } from '../../../src/lib/core/api/vaults';
import { indexName } from '../../../src/lib/services/index/model-index';
import { leaderLockName, LeaderRole } from '../../../src/lib/services/index/leader-role';
import { holdLock, vaultOpenLockName, workerAlive, workerLockName } from '../../../src/lib/services/locks';
import { openRegisteredVault } from '../../../src/lib/services/vaults/open-vault';
import { VaultsService } from '../../../src/lib/services/vaults/vaults-service';
import { openVault } from '../../../src/lib/store/vault';
import { VaultRegistry } from '../../../src/lib/store/vault-registry';
import { openIndexCache } from '../../../src/lib/store/vector-index-manifest';
import { deleteHnswFiles, HNSW_FS_DB } from '../../../src/lib/store/vector-index-runtime';
import { FakeLocks } from '../../factories/locks';

let n = 0;

function setup() {
  n += 1;
  const registry = new VaultRegistry(`vaults-service-${process.pid}-${n}`);
  const locks = new FakeLocks();
  const cacheDb = `vaults-cache-${process.pid}-${n}`;
  const service = new VaultsService({ boundDbName: PERSONAL_DB_NAME, locks: locks.asManager(), registry, indexCacheDb: cacheDb });
  return { registry, locks, cacheDb, service };
}

/** Writes IDBFS-shaped rows (hnswlib-wasm's store) straight into its database. */
async function writeHnswFiles(paths: string[]): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.open(HNSW_FS_DB, 21);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains('FILE_DATA')) request.result.createObjectStore('FILE_DATA');
    };
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const tx = request.result.transaction('FILE_DATA', 'readwrite');
      for (const path of paths)
        tx.objectStore('FILE_DATA').put({ contents: new Uint8Array([1]), mode: 33206, timestamp: new Date() }, path);
      tx.oncomplete = () => {
        request.result.close();
        resolve();
      };
    };
  });
}

async function hnswPaths(): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(HNSW_FS_DB);
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const keys = request.result.transaction('FILE_DATA').objectStore('FILE_DATA').getAllKeys();
      keys.onsuccess = () => {
        request.result.close();
        resolve(keys.result.map(String));
      };
    };
  });
}

describe('deleting a vault', () => {
  it('asks for the exact name, and refuses the vault open here and the last vault', async () => {
    const { registry, service } = setup();
    const work = await service.createVault('Work');
    await expect(service.deleteVault(work.id, 'work')).rejects.toMatchObject({ code: 'vaults/invalid-name' });
    await expect(service.deleteVault('personal', 'Personal')).rejects.toMatchObject({ code: 'vaults/in-use' });
    const fromWork = new VaultsService({ boundDbName: work.dbName, locks: undefined, registry });
    await fromWork.deleteVault('personal', 'Personal');
    // Only Work is left now: the last vault stays.
    await expect(fromWork.deleteVault(work.id, 'Work')).rejects.toMatchObject({ code: 'vaults/in-use' });
    expect((await registry.list()).map((v) => v.name)).toEqual(['Work']);
  });

  it('is refused while another tab has the vault open, and succeeds once it closed', async () => {
    const { locks, service } = setup();
    const work = await service.createVault('Work');
    const otherTab = await holdLock(locks.asManager(), vaultOpenLockName(work.dbName), { mode: 'shared' });
    await expect(service.deleteVault(work.id, 'Work')).rejects.toMatchObject({ code: 'vaults/in-use' });
    otherTab!.release();
    await service.deleteVault(work.id, 'Work');
    expect(await Dexie.exists(work.dbName)).toBe(false);
  });

  it('removes its database, its saved indexes and its HNSW files, and nothing of another vault', async () => {
    const { registry, cacheDb, service } = setup();
    const work = await service.createVault('Work');
    const workVault = await openVault(work.dbName);
    await workVault.settings.set('vault.id', 'work-id');
    workVault.db.close();
    const personalVault = await openVault(PERSONAL_DB_NAME);
    await personalVault.settings.set('vault.id', 'personal-id');
    personalVault.db.close();

    const cache = openIndexCache(cacheDb);
    const manifest = (scope: string) => ({
      name: indexName(scope, 'lexical-v1-384'),
      modelId: 'lexical-v1-384',
      dims: 384,
      params: { M: 16, efConstruction: 100, ef: 50, seed: 1 },
      capacity: 16,
      nextLabel: 0,
      deleted: 0,
      labels: [],
      recordIds: [],
      hashes: [],
      savedAt: 1,
    });
    // Personal's database name is a prefix of every other vault's: only an exact scope may match.
    for (const scope of [PERSONAL_DB_NAME, work.dbName]) {
      await cache.manifests.put(manifest(scope));
      await cache.blobs.put(`bm25:r1:${scope}`, [1]);
      await cache.blobs.put(`health:${scope}`, { ok: true });
    }
    await cache.blobs.put('models:provided', []);
    await writeHnswFiles([
      `/hnswlib-index/${indexName(PERSONAL_DB_NAME, 'lexical-v1-384')}.hnsw`,
      `/hnswlib-index/${indexName(work.dbName, 'lexical-v1-384')}.hnsw`,
    ]);

    const fromWork = new VaultsService({ boundDbName: work.dbName, locks: undefined, registry, indexCacheDb: cacheDb });
    await expect(fromWork.deleteVault(work.id, 'Work')).rejects.toMatchObject({ code: 'vaults/in-use' });
    // Personal's database name is a prefix of Work's: deleting Personal must leave every piece of Work.
    await fromWork.deleteVault('personal', 'Personal');

    expect(await Dexie.exists(PERSONAL_DB_NAME)).toBe(false);
    expect((await registry.list()).map((v) => v.name)).toEqual(['Work']);
    expect(await cache.manifests.get(indexName(PERSONAL_DB_NAME, 'lexical-v1-384'))).toBeUndefined();
    expect(await cache.manifests.get(indexName(work.dbName, 'lexical-v1-384'))).toBeDefined();
    expect(await cache.blobs.get(`bm25:r1:${PERSONAL_DB_NAME}`)).toBeUndefined();
    expect(await cache.blobs.get(`health:${PERSONAL_DB_NAME}`)).toBeUndefined();
    expect(await cache.blobs.get(`bm25:r1:${work.dbName}`)).toEqual([1]);
    expect(await cache.blobs.get(`health:${work.dbName}`)).toEqual({ ok: true });
    expect(await cache.blobs.get('models:provided')).toEqual([]);
    expect(await hnswPaths()).toEqual([`/hnswlib-index/${indexName(work.dbName, 'lexical-v1-384')}.hnsw`]);
    const kept = await openVault(work.dbName);
    expect(await kept.settings.get('vault.id')).toBe('work-id');
    kept.db.close();
    cache.close();
    await deleteHnswFiles([`${indexName(work.dbName, 'lexical-v1-384')}.hnsw`]);
  });

  it('a worker that starts while the vault is being deleted finds it gone instead of creating it empty', async () => {
    const { registry, locks, service } = setup();
    const work = await service.createVault('Work');
    const deleting = await holdLock(locks.asManager(), vaultOpenLockName(work.dbName));
    const opening = openRegisteredVault(work.dbName, { locks: locks.asManager(), registry });
    await registry.remove(work.id);
    await Dexie.delete(work.dbName);
    deleting!.release();
    await expect(opening).rejects.toMatchObject({ code: 'vaults/not-found' });
    expect(await Dexie.exists(work.dbName)).toBe(false);
  });

  it('creating and renaming write the name into the vault itself (it travels in its file)', async () => {
    const { service } = setup();
    const work = await service.createVault('Work');
    await service.renameVault(work.id, 'Job');
    const vault = await openVault(work.dbName);
    expect(await vault.settings.get('vault.name')).toBe('Job');
    vault.db.close();
  });
});

describe('locks are per vault', () => {
  it('each vault has its own index leader; two tabs of one vault share one', async () => {
    const locks = new FakeLocks().asManager();
    const a1 = new LeaderRole(locks, 'db-a');
    const a2 = new LeaderRole(locks, 'db-a');
    const b = new LeaderRole(locks, 'db-b');
    expect(await a1.tryLead()).toBe(true);
    expect(await a2.tryLead()).toBe(false);
    expect(await b.tryLead()).toBe(true);
    expect(leaderLockName('db-a')).not.toBe(leaderLockName('db-b'));
  });

  it("a job's holder is judged alive only by the lock of its own vault", async () => {
    const locks = new FakeLocks();
    await holdLock(locks.asManager(), workerLockName('db-a', 'worker-1'));
    expect(await workerAlive(locks.asManager(), 'db-a')('worker-1')).toBe(true);
    expect(await workerAlive(locks.asManager(), 'db-b')('worker-1')).toBe(false);
    expect(locks.names().every((name) => name.includes('db-a'))).toBe(true);
  });
});
