/**
 * One hnswlib-wasm runtime per realm, loaded once, and one queue for its file system: syncing or
 * reading several indexes at once throws inside Emscripten's IDBFS.
 *
 * The file system is one IndexedDB database for the whole origin (`/hnswlib-index`), shared by
 * every vault's index (file names carry the vault, model-index.ts `indexName`), and a sync writes
 * the whole mount: a worker writing from a stale copy would delete or roll back the files another
 * vault's leader saved since. So every task also holds the Web Lock `engram-hnswlib-fs` (where
 * there is one) and a save reads the mount first (`vector-index.ts`). This lock is about the
 * origin's one file system, not about a vault, so its name carries no vault.
 */
import type * as HnswlibWasm from 'hnswlib-wasm';
import type { HnswlibModule } from 'hnswlib-wasm';

// The package (Emscripten glue with its WASM as base64, about 0.2 MB gzip) is imported on first
// use: a vault with no vectors yet never loads it (docs/BUNDLE.md).
type HnswlibPackage = typeof HnswlibWasm;
let pkg: Promise<HnswlibPackage> | null = null;
let runtime: Promise<HnswlibModule> | null = null;
let queue: Promise<unknown> = Promise.resolve();

/** The IndexedDB database hnswlib-wasm's IDBFS keeps its files in, and its object store. */
export const HNSW_FS_DB = '/hnswlib-index';
const HNSW_FS_STORE = 'FILE_DATA';
const FS_LOCK = 'engram-hnswlib-fs';

function hnswlibPackage(): Promise<HnswlibPackage> {
  pkg ??= import('hnswlib-wasm').catch((error: unknown) => {
    pkg = null;
    throw error;
  });
  return pkg;
}

export function hnswlib(): Promise<HnswlibModule> {
  runtime ??= hnswlibPackage().then(
    (module) => module.loadHnswlib(),
    (error: unknown) => {
      runtime = null;
      throw error;
    },
  );
  return runtime;
}

function locks(): LockManager | undefined {
  return (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
}

/** Runs `task` after every earlier file-system task of this realm has settled, holding the origin's file-system lock. */
export function exclusive<T>(task: () => Promise<T>): Promise<T> {
  const manager = locks();
  const locked = manager ? () => manager.request(FS_LOCK, task) as Promise<T> : task;
  const run = queue.then(locked, locked);
  queue = run.catch(() => undefined);
  return run;
}

export const readFileSystem = async (): Promise<void> => (await hnswlibPackage()).syncFileSystem('read');
export const fileSystemSynced = async (): Promise<void> => (await hnswlibPackage()).waitForFileSystemSynced();

/**
 * Deletes index files of a deleted vault straight from the IDBFS database (hnswlib-wasm cannot
 * delete a file), under the file-system lock. Another realm that still holds a copy in memory drops
 * it at its next read (every save reads first). Does nothing when the database does not exist.
 */
export async function deleteHnswFiles(
  fileNames: readonly string[],
  factory: IDBFactory | undefined = globalThis.indexedDB,
): Promise<number> {
  if (fileNames.length === 0 || !factory) return 0;
  const wanted = new Set(fileNames);
  const work = () =>
    new Promise<number>((resolve, reject) => {
      const request = factory.open(HNSW_FS_DB);
      request.onupgradeneeded = () => request.transaction?.abort();
      request.onerror = () => (request.error?.name === 'AbortError' ? resolve(0) : reject(request.error ?? new Error('IDBFS open failed')));
      request.onsuccess = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains(HNSW_FS_STORE)) {
          db.close();
          resolve(0);
          return;
        }
        const tx = db.transaction(HNSW_FS_STORE, 'readwrite');
        const store = tx.objectStore(HNSW_FS_STORE);
        let deleted = 0;
        const keys = store.getAllKeys();
        keys.onsuccess = () => {
          for (const key of keys.result) {
            const path = String(key);
            if (wanted.has(path.slice(path.lastIndexOf('/') + 1))) {
              store.delete(key);
              deleted++;
            }
          }
        };
        tx.oncomplete = () => {
          db.close();
          resolve(deleted);
        };
        tx.onerror = () => {
          db.close();
          reject(tx.error ?? new Error('IDBFS delete failed'));
        };
      };
    });
  const manager = locks();
  return manager ? (manager.request(FS_LOCK, work) as Promise<number>) : work();
}
