import { expect, test } from '@playwright/test';
import { chatgptExport } from '../tests/factories/import-generator';
import { AppShell } from './pages/app';
import { ImportPage } from './pages/import';

const MOSS = 'User: What soil does moss need?\nAssistant: Shade, moisture and slightly acidic soil.';

test('offline, a file of a megabyte or more imports whole, though its prepare worker was never fetched', async ({ page, context }) => {
  test.setTimeout(120_000);
  const app = new AppShell(page);
  const importPage = new ImportPage(page);
  // Online once: the app is cached and the import worker has run. A paste is prepared in the import
  // worker itself, so the prepare worker's script (a nested worker, not in the service worker's
  // precache) was never fetched: offline, the import worker cannot start it and prepares the file
  // in its own thread (store/prepare-worker-host.ts).
  await importPage.open();
  await importPage.paste(MOSS);
  expect(await importPage.storedCounts()).toEqual({ conversations: 1, messages: 2 });
  await app.waitForServiceWorkerControl();

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
