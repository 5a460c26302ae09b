import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AppShell } from './pages/app';
import { waitForServiceWorkerControl } from './pages/service-worker';

test('after one visit the app works offline, the home screen and a deep link included', async ({ page, context }) => {
  const app = new AppShell(page);
  await app.open('/');
  await app.waitForServiceWorkerControl();

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Recall' })).toBeVisible();
  await expect(page.getByTestId('recall-input')).toBeFocused();

  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByTestId('storage-status')).toBeVisible();

  // A deep link never visited online is served from the cached shell too.
  await page.goto('/notes');
  await expect(page.getByRole('heading', { level: 1, name: 'Notes' })).toBeVisible();
  await context.setOffline(false);
});

test('a new version waits for the person, reloads on request, and leaves the model caches alone', async ({ page }) => {
  const app = new AppShell(page);
  await app.open('/');
  await app.waitForServiceWorkerControl();
  await expect(page.getByTestId('sw-update')).toHaveCount(0);

  // Deploy a "new version": the same service worker with another build version (same length, so
  // the static server's recorded size stays right). Restored afterwards.
  const swPath = fileURLToPath(new URL('../build/service-worker.js', import.meta.url));
  const versionPath = fileURLToPath(new URL('../build/_app/version.json', import.meta.url));
  const original = readFileSync(swPath, 'utf8');
  const { version } = JSON.parse(readFileSync(versionPath, 'utf8')) as { version: string };
  const next = version.slice(0, -1) + (version.endsWith('7') ? '8' : '7');
  expect(original).toContain(version);
  // A big file is not precached; it is cached on first use, and that survives the update (its
  // content-hashed path is the same in the new version). WebLLM's worker bundle is such a file.
  const workers = fileURLToPath(new URL('../build/_app/immutable/workers/', import.meta.url));
  const llmWorker = readdirSync(workers).find((name) => name.startsWith('llm.worker-'));
  expect(llmWorker).toBeDefined();
  const bigPath = `/_app/immutable/workers/${llmWorker}`;
  expect(statSync(`${workers}${llmWorker}`).size).toBeGreaterThan(4 * 1024 * 1024);
  const cachedIn = (name: string) =>
    page.evaluate(async ([cache, path]) => (await (await caches.open(cache!)).match(path!)) !== undefined, [name, bigPath]);
  expect(await cachedIn(`engram-shell-${version}`)).toBe(false);
  expect(await page.evaluate(async (path) => (await fetch(path)).ok, bigPath)).toBe(true);
  expect(await cachedIn(`engram-shell-${version}`)).toBe(true);
  // Model caches written by transformers.js and WebLLM must survive every update.
  await page.evaluate(async () => {
    await (await caches.open('transformers-cache')).put('/model-marker', new Response('weights'));
    await (await caches.open('webllm/model')).put('/model-marker', new Response('weights'));
  });
  writeFileSync(swPath, original.replaceAll(version, next));
  try {
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });
    const prompt = page.getByTestId('sw-update');
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    // The old version keeps control until the person chooses: no silent takeover.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null)).toBe(true);

    const reloaded = page.waitForEvent('framenavigated');
    await prompt.getByRole('button', { name: 'Reload to update' }).click();
    await reloaded;
    await expect(page.getByTestId('nav-recall')).toBeVisible();
    await expect(page.getByTestId('sw-update')).toHaveCount(0);
    const caches = await page.evaluate(() => window.caches.keys());
    expect(caches).toContain(`engram-shell-${next}`);
    expect(caches).not.toContain(`engram-shell-${version}`);
    expect(caches).toEqual(expect.arrayContaining(['transformers-cache', 'webllm/model']));
    expect(await cachedIn(`engram-shell-${next}`)).toBe(true);
  } finally {
    writeFileSync(swPath, original);
  }
});

test.describe('the e2e wait for the service worker cannot hang', () => {
  test('a page the active worker never claimed is reloaded once, then controlled', async ({ page, context }) => {
    const app = new AppShell(page);
    await app.open('/');
    await app.waitForServiceWorkerControl();
    // Load the page around the active worker (as a page loaded before activation would be): it
    // stays uncontrolled, and nothing will claim it (the worker claims only when it activates).
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setBypassServiceWorker', { bypass: true });
    await page.reload();
    await expect(page.getByTestId('nav-recall')).toBeVisible();
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    await cdp.send('Network.setBypassServiceWorker', { bypass: false });

    let loads = 0;
    page.on('load', () => loads++);
    await waitForServiceWorkerControl(page, { claimMs: 1_000 });
    expect(loads).toBe(1);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe('activated');
  });

  test.describe('with service workers blocked', () => {
    test.use({ serviceWorkers: 'block' });

    test('a page no worker will ever control fails with a message saying why (it gives up on its own: no hang)', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByTestId('nav-recall')).toBeVisible();
      await expect(waitForServiceWorkerControl(page, { activateMs: 2_000 })).rejects.toThrow(
        /^No service worker became active for http:\/\/127\.0\.0\.1:\d+\/ within 2000 ms \(the page has no service worker registration/u,
      );
    });
  });
});
