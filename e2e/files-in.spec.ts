import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import { AppShell } from './pages/app';
import { CapturePage } from './pages/capture';
import { buildSeedFile } from './pages/vault-file';

/**
 * Files in (issue 18): a ZIP shared into the installed app, and files opened with it.
 *
 * How the platform is emulated (headless Chromium installs no app, so the OS never shares into it
 * nor launches it with files):
 * - Share: the OS would make the browser POST a multipart form to the manifest's share_target
 *   action. The test makes the page submit exactly that form (a real navigation POST to /share with
 *   a real file), so the real service worker receives it, keeps the files and redirects.
 * - Open with: the browser would call the consumer the app gave `launchQueue.setConsumer` with
 *   `{ files: FileSystemFileHandle[] }`. An init script records that consumer (wrapping the native
 *   `launchQueue` when there is one) and the test calls it with real FileSystemFileHandles made in
 *   the origin's private file system (OPFS), as the File Handling API would pass them.
 */

function chatgptExport(title: string, words: string[]): string {
  const mapping: Record<string, unknown> = { root: { id: 'root', parent: null, children: ['m0'], message: null } };
  words.forEach((text, i) => {
    mapping[`m${i}`] = {
      id: `m${i}`,
      parent: i === 0 ? 'root' : `m${i - 1}`,
      children: i + 1 < words.length ? [`m${i + 1}`] : [],
      message: {
        id: `m${i}`,
        author: { role: i % 2 ? 'assistant' : 'user' },
        create_time: 1_700_000_000 + i,
        content: { content_type: 'text', parts: [text] },
        metadata: {},
      },
    };
  });
  return JSON.stringify([{ title, id: `conv-${title}`, create_time: 1_700_000_000, mapping, current_node: `m${words.length - 1}` }]);
}

const SHARED_ZIP = Buffer.from(
  zipSync({
    'conversations.json': strToU8(
      chatgptExport('Garden irrigation', ['Should the drip line run at dawn?', 'Yes: dawn watering loses the least to evaporation.']),
    ),
  }),
);

/** Submits the form a share sheet would POST to the manifest's share_target. */
async function shareIntoApp(page: Page, fields: Record<string, string>, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.evaluate((values) => {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = '/share';
    form.enctype = 'multipart/form-data';
    form.id = 'emulated-share';
    for (const [name, value] of Object.entries(values)) {
      const input = document.createElement('input');
      input.name = name;
      input.value = value;
      form.append(input);
    }
    const picker = document.createElement('input');
    picker.type = 'file';
    picker.name = 'files';
    picker.multiple = true;
    form.append(picker);
    document.body.append(form);
  }, fields);
  if (files.length > 0) await page.locator('#emulated-share input[type=file]').setInputFiles(files);
  await page.evaluate(() => (document.getElementById('emulated-share') as HTMLFormElement).submit());
}

async function incomingCacheKeys(page: Page): Promise<number> {
  return page.evaluate(async () => (await (await caches.open('engram-incoming-files')).keys()).length);
}

test('a ZIP shared into the app waits on the Import screen and is imported only after the person confirms', async ({ page }) => {
  const shell = new AppShell(page);
  await shell.open('/');
  await shell.waitForServiceWorkerControl();
  const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as { share_target: { method: string } };
  expect(manifest.share_target.method).toBe('POST');

  await shareIntoApp(page, { title: 'export' }, [{ name: 'chatgpt-export.zip', mimeType: 'application/zip', buffer: SHARED_ZIP }]);
  await page.waitForURL(/\/import$/u);
  const card = page.getByTestId('incoming-files');
  await expect(card).toHaveAttribute('data-origin', 'share');
  await expect(card.getByTestId('incoming-file')).toHaveText(/chatgpt-export\.zip/u);
  await expect(card.getByTestId('incoming-file')).toHaveAttribute('data-kind', 'import');
  await expect(page.getByRole('heading', { name: /shared with Engram Vault/u })).toBeFocused();
  // Nothing is stored before the person chooses.
  const capture = new CapturePage(page);
  expect(await capture.stored()).toEqual({ conversations: 0, messages: 0, resources: 0 });
  expect(await incomingCacheKeys(page)).toBe(1);

  await card.getByTestId('incoming-import').click();
  await expect(page.getByTestId('import-report')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('report-conversations-stored')).toHaveText('1');
  await expect(page.getByTestId('report-messages-stored')).toHaveText('2');
  await expect(card).toHaveCount(0);
  // The card goes at once; the kept files are deleted from the cache after it (incoming-files.svelte.ts).
  await expect.poll(() => incomingCacheKeys(page)).toBe(0);
});

test('a shared file can be discarded, and shared text still lands on Capture', async ({ page }) => {
  const shell = new AppShell(page);
  await shell.open('/');
  await shell.waitForServiceWorkerControl();
  await shareIntoApp(page, {}, [{ name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# A heading\n\nSome words.') }]);
  await page.waitForURL(/\/import$/u);
  await page.getByTestId('incoming-discard').click();
  await expect(page.getByTestId('incoming-files')).toHaveCount(0);
  // The card goes at once; the kept files are deleted from the cache after it: wait for that, do not race it.
  await expect.poll(() => incomingCacheKeys(page)).toBe(0);
  expect(await new CapturePage(page).stored()).toEqual({ conversations: 0, messages: 0, resources: 0 });

  await shell.open('/');
  await shareIntoApp(page, { title: 'A shared note', text: 'Buckets refill; windows slide.', url: '' }, []);
  await page.waitForURL(/\/capture/u);
  await expect(page.getByTestId('capture-title')).toHaveText('A shared note');
});

/** Records the consumer the app hands to launchQueue.setConsumer, so the test can launch it. */
async function recordLaunchConsumer(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { launchQueue?: { setConsumer(c: (p: unknown) => void): void }; __launch?: (p: unknown) => void };
    const native = w.launchQueue;
    let consumer: ((p: unknown) => void) | null = null;
    Object.defineProperty(w, 'launchQueue', {
      configurable: true,
      value: {
        setConsumer(c: (p: unknown) => void) {
          consumer = c;
          native?.setConsumer(c);
        },
      },
    });
    w.__launch = (params) => consumer?.(params);
  });
}

/** Writes files into OPFS and passes their real handles to the app's launch consumer. */
async function openWithApp(page: Page, files: { name: string; base64: string }[]): Promise<void> {
  await page.evaluate(async (list) => {
    const root = await navigator.storage.getDirectory();
    const handles: FileSystemFileHandle[] = [];
    for (const file of list) {
      const handle = await root.getFileHandle(file.name, { create: true });
      const writable = await handle.createWritable();
      await writable.write(Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0)));
      await writable.close();
      handles.push(handle);
    }
    (window as unknown as { __launch(p: unknown): void }).__launch({ files: handles, targetURL: `${location.origin}/import` });
  }, files);
}

test('files opened with the installed app: an export is imported, a vault file merged, each after confirming', async ({ page }) => {
  await recordLaunchConsumer(page);
  const shell = new AppShell(page);
  await shell.open('/');
  const exportJson = chatgptExport('Bread starter', ['How often to feed a rye starter?', 'Twice a day at room temperature.']);
  await openWithApp(page, [{ name: 'conversations.json', base64: Buffer.from(exportJson).toString('base64') }]);
  await page.waitForURL(/\/import$/u);
  const card = page.getByTestId('incoming-files');
  await expect(card).toHaveAttribute('data-origin', 'open');
  await expect(page.getByRole('heading', { name: /opened with Engram Vault/u })).toBeFocused();
  await expect(card.getByTestId('incoming-file')).toHaveAttribute('data-kind', 'import');
  expect(await new CapturePage(page).stored()).toEqual({ conversations: 0, messages: 0, resources: 0 });
  await card.getByTestId('incoming-import').click();
  await expect(page.getByTestId('report-conversations-stored')).toHaveText('1', { timeout: 60_000 });

  const seed = join(mkdtempSync(join(tmpdir(), 'engram-open-')), 'seed-a.engram');
  buildSeedFile(seed, 'a');
  await openWithApp(page, [{ name: 'backup.engram', base64: readFileSync(seed).toString('base64') }]);
  await expect(card.getByTestId('incoming-file')).toHaveAttribute('data-kind', 'vault');
  await expect(card.getByTestId('incoming-import')).toHaveCount(0);
  // Restore asks again before it replaces anything; the test keeps the vault, then merges.
  await card.getByTestId('incoming-restore').click();
  await expect(page.getByTestId('incoming-restore-confirm')).toBeVisible();
  await page.getByTestId('incoming-restore-no').click();
  expect((await new CapturePage(page).stored()).conversations).toBe(1);
  await card.getByTestId('incoming-merge').click();
  await expect(page.getByTestId('incoming-vault-outcome')).toContainText(/Merged/u, { timeout: 30_000 });
  await expect(card).toHaveCount(0);
  expect((await new CapturePage(page).stored()).conversations).toBe(3);
});
