import { expect, test } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AppShell } from './pages/app';

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
  } finally {
    writeFileSync(swPath, original);
  }
});
