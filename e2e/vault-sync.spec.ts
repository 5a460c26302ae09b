import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { buildSeedFile, chooseOpfsSyncFolder, readOpfsSyncFile, VaultFilePanel } from './pages/vault-file';

/**
 * The sync folder in the real browser: the vault worker writes the vault file into a folder handle
 * (structured-cloned from IndexedDB into the worker, written through createWritable), and at start
 * the app merges a newer file it finds there. Two browser contexts stand for two devices whose
 * folders a cloud drive keeps equal (the test copies the file across).
 */

async function device(browser: Browser, seed: string): Promise<VaultFilePanel> {
  const context = await browser.newContext();
  const panel = new VaultFilePanel(await context.newPage());
  await panel.open();
  test.skip(!(await panel.page.evaluate(() => 'showDirectoryPicker' in window)), 'this browser has no File System Access API');
  await panel.restore(seed);
  await panel.outcome('Restored');
  return panel;
}

test('a vault written to the sync folder on one device is merged at start on another, and back', async ({ browser }) => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-sync-'));
  buildSeedFile(join(dir, 'a.engram'), 'a');
  buildSeedFile(join(dir, 'b.engram'), 'b');
  const a = await device(browser, join(dir, 'a.engram'));
  const b = await device(browser, join(dir, 'b.engram'));

  await chooseOpfsSyncFolder(a.page);
  await a.open(); // a reload: the app finds the folder, with permission (origin-private), and nothing to merge
  await expect(a.page.getByTestId('vault-sync-folder')).toContainText('engram-sync');
  // The start-up sync comes seconds after the first screen and disables "Sync now" while it runs:
  // a click landing as it starts would meet a disabled button, so the test waits for its outcome.
  await expect(a.page.getByTestId('vault-sync-folder')).toContainText('The folder holds no vault file yet.', { timeout: 30_000 });
  await a.page.getByTestId('vault-sync-now').click();
  await expect(a.page.getByTestId('vault-sync-folder')).toContainText('wrote the vault file');
  const fromA = await readOpfsSyncFile(a.page);
  expect(new TextDecoder().decode(new Uint8Array(fromA.slice(0, 30)))).toContain('"format":"engram-vault"');

  // Device B finds A's file in its (synced) folder at start and merges it.
  await chooseOpfsSyncFolder(b.page, fromA);
  await b.open();
  await expect(b.page.getByTestId('vault-count-conversations')).toHaveText('3', { timeout: 30_000 });
  await expect(b.page.getByTestId('vault-sync-folder')).toContainText('merged a newer file');
  await b.page.getByTestId('vault-sync-now').click();
  await expect(b.page.getByTestId('vault-sync-folder')).toContainText('wrote the vault file');

  // And A merges B's merged file at its next start: both devices hold the same vault.
  await chooseOpfsSyncFolder(a.page, await readOpfsSyncFile(b.page));
  await a.open();
  await expect(a.page.getByTestId('vault-count-conversations')).toHaveText('3', { timeout: 30_000 });
  expect(await a.fingerprint()).toBe(await b.fingerprint());
});
