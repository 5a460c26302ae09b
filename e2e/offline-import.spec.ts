import { expect, test, type Page } from '@playwright/test';
import { chatgptExport } from '../tests/factories/import-generator';
import { AppShell } from './pages/app';
import { ImportPage } from './pages/import';

const MOSS = 'User: What soil does moss need?\nAssistant: Shade, moisture and slightly acidic soil.';

/** The worker files the app's cache holds (paths under /_app/immutable/workers/). */
function cachedWorkerFiles(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const out: string[] = [];
    for (const name of await caches.keys()) {
      if (!name.startsWith('engram-shell-')) continue;
      for (const request of await (await caches.open(name)).keys()) {
        const path = new URL(request.url).pathname;
        if (path.startsWith('/_app/immutable/workers/')) out.push(path);
      }
    }
    return out;
  });
}

test('offline, a file of a megabyte or more imports whole; the nested workers and worker chunks were precached', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const app = new AppShell(page);
  const importPage = new ImportPage(page);
  // Online once: the app is cached and the import worker has run. A paste is prepared in the import
  // worker itself, so the prepare worker's script was never asked for: it is cached because the
  // service worker found it named in the import worker's file (core/offline/worker-references.ts).
  await importPage.open();
  await importPage.paste(MOSS);
  expect(await importPage.storedCounts()).toEqual({ conversations: 1, messages: 2 });
  await app.waitForServiceWorkerControl();
  const cached = await cachedWorkerFiles(page);
  expect(cached.filter((path) => /\/prepare\.worker-[\w-]+\.js$/u.test(path))).toHaveLength(1);
  expect(cached.filter((path) => /\/embed\.worker-[\w-]+\.js$/u.test(path))).toHaveLength(1);
  expect(cached.some((path) => path.startsWith('/_app/immutable/workers/chunks/'))).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await importPage.open();
  const { chunks, counts } = chatgptExport({ conversations: 40, targetBytes: 1_500_000, seed: 12 });
  const big = Buffer.concat([...chunks]);
  expect(big.length).toBeGreaterThan(1_000_000);
  await importPage.upload([{ name: 'conversations.json', mimeType: 'application/json', buffer: big }]);
  expect(await importPage.storedCounts()).toEqual({ conversations: counts.conversations, messages: counts.visible });
  await expect(importPage.report()).toHaveAttribute('data-status', 'done');
  await context.setOffline(false);
});
