import { describe, expect, it, vi } from 'vitest';
import type { SyncRequest, SyncResult } from '../../../src/lib/core/api/vault-file';

// The sync folder's browser pieces, as a Chromium page with a granted folder has them.
const settings: Record<string, unknown> = { 'vault.syncFolder': { kind: 'directory', name: 'engram-sync' } };
vi.mock('../../../src/lib/store/views/vault-views', () => ({
  vaultViews: () => Promise.resolve({ setting: (key: string) => Promise.resolve(settings[key] ?? null) }),
}));
vi.mock('../../../src/lib/client/vault-file-folder', () => ({
  folderSyncSupported: () => true,
  folderPermission: () => Promise.resolve('granted'),
  isFolderHandle: (value: unknown) => typeof value === 'object' && value !== null,
  pickFolder: () => Promise.resolve(null),
}));
vi.mock('../../../src/lib/client/vault-worker', () => ({ vaultWorker: () => ({ call: () => Promise.resolve(undefined) }) }));

const { SyncFolder } = await import('../../../src/lib/client/vault-file-sync.svelte');

const WROTE: SyncResult = { merged: null, written: { bytes: 1 } as unknown as SyncResult['written'], note: null };
const SAME: SyncResult = { merged: null, written: null, note: 'The folder holds the same file as the last one merged or written here.' };

/** A worker whose syncs the test answers by hand, in any order. */
function deferredSyncs() {
  const calls: { request: SyncRequest; background: boolean; answer: (result: SyncResult) => void }[] = [];
  const run = (_folder: FileSystemDirectoryHandle, request: SyncRequest, background: boolean) =>
    new Promise<SyncResult | undefined>((answer) => calls.push({ request, background, answer }));
  return { run, calls };
}

/** A folder with its setting loaded, over a worker answered by hand. */
async function loadedFolder() {
  const { run, calls } = deferredSyncs();
  const folder = new SyncFolder(run);
  await folder.load();
  return { folder, calls };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the sync folder', () => {
  it('skips the start-up sync when the person synced before it came (their outcome stays on screen)', async () => {
    const { folder, calls } = await loadedFolder();
    const click = folder.syncNow(true);
    await settle();
    calls[0]!.answer(WROTE);
    await click;
    expect(folder.lastNote).toBe('wrote the vault file');
    await folder.startup();
    expect(calls).toHaveLength(1);
    expect(folder.lastNote).toBe('wrote the vault file');
  });

  it("a click during the app's own sync waits for it, then runs; its outcome is the one shown", async () => {
    // The real client refuses a second vault-file task while one runs: the click must not start one.
    const { folder, calls } = await loadedFolder();
    const background = folder.syncNow(false, true);
    const click = folder.syncNow(true);
    await settle();
    expect(calls.map((c) => c.background)).toEqual([true]);
    calls[0]!.answer(SAME);
    await background;
    await vi.waitFor(() => expect(calls.map((c) => c.background)).toEqual([true, false]));
    calls[1]!.answer(WROTE);
    await click;
    expect(folder.lastNote).toBe('wrote the vault file');
    expect(folder.lastSyncAt).not.toBeNull();
  });

  it("the app's own sync skips while the person's runs", async () => {
    const { folder, calls } = await loadedFolder();
    const click = folder.syncNow(true);
    await settle();
    await folder.syncNow(true, true);
    expect(calls.map((c) => c.background)).toEqual([false]);
    calls[0]!.answer(WROTE);
    await click;
    expect(folder.lastNote).toBe('wrote the vault file');
  });

  it('runs the start-up sync when nothing synced before (it reads without writing unless a schedule is set)', async () => {
    const { run, calls } = deferredSyncs();
    const folder = new SyncFolder(run);
    const started = folder.startup();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ background: true, request: { write: false } });
    calls[0]!.answer(SAME);
    await started;
    expect(folder.lastNote).toBe(SAME.note);
  });
});
