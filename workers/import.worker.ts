/// <reference lib="webworker" />
// The Trusted Types default policy of this worker, first (src/lib/trusted-types.ts).
import '../src/lib/trusted-types';
import type { ImportApi } from '../src/lib/core/api/import';
import { vaultError } from '../src/lib/core/errors';
import { queueAfterPublish } from '../src/lib/store/extract-queue';
import { runImport } from '../src/lib/store/importer';
import { openVault } from '../src/lib/store/vault';
import { IMPORT_LOCK_PREFIX, rollbackInterrupted } from '../src/lib/store/import-recovery';
import { exposeApi } from './expose';

/*
 * The import worker: parses files and writes them raw-first (staged, then published). While an
 * import runs it holds a Web Lock named after the import, so a tab opened later can tell an import
 * interrupted by a closed tab (lock gone) from one still running elsewhere, and roll the former back.
 */
const locks: LockManager | undefined = (self.navigator as Navigator | undefined)?.locks;
const vaultReady = openVault();
const recovered = vaultReady.then((vault) => rollbackInterrupted(vault, locks));
let running: AbortController | null = null;

/** Takes a Web Lock and returns the function that releases it. */
async function holdLock(name: string): Promise<() => void> {
  if (!locks) return () => undefined;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await new Promise<void>((acquired) => {
    void locks.request(name, () => {
      acquired();
      return held;
    });
  });
  return release;
}

const api: ImportApi = {
  async ping() {
    return 'pong';
  },
  async ready() {
    return { rolledBack: await recovered };
  },
  async importFiles(files, onProgress) {
    if (running) throw vaultError('import/failed', 'Another import is still running in this tab; wait for it or cancel it.');
    await recovered;
    const vault = await vaultReady;
    const controller = new AbortController();
    running = controller;
    try {
      const inputs = files.map((f) => ({ name: f.name, size: f.blob.size, bytes: f.blob.stream() }));
      return await runImport(vault, inputs, {
        signal: controller.signal,
        onProgress,
        onStarted: (importId) => holdLock(`${IMPORT_LOCK_PREFIX}${importId}`),
        // The index worker leases index.update, then extract.conversation, within a second of each file becoming visible.
        onPublished: queueAfterPublish(vault),
      });
    } finally {
      running = null;
    }
  },
  async cancel() {
    running?.abort();
  },
};

exposeApi(api);
