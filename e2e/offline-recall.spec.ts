import { expect, test } from '@playwright/test';
import { AppShell } from './pages/app';
import { ImportPage } from './pages/import';
import { IndexPanels } from './pages/index-panels';
import { RecallPage } from './pages/recall';
import { MOSS_ANSWER, MOSS_TEA, MOSS_TRANSCRIPT } from './recall-fixtures';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('offline: recall answers from the vault and Copy puts the package on the clipboard', async ({ page, context }) => {
  test.setTimeout(120_000);
  const app = new AppShell(page);
  const importPage = new ImportPage(page);
  const panels = new IndexPanels(page);
  const recall = new RecallPage(page);
  await importPage.open();
  await importPage.paste(MOSS_TRANSCRIPT);
  await importPage.storedCounts();
  await importPage.open();
  await importPage.paste(MOSS_TEA);
  await importPage.storedCounts();
  await panels.openSettings();
  await panels.waitUpToDate();

  await recall.open();
  await app.waitForServiceWorkerControl();
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Recall' })).toBeVisible();
  await expect(recall.input).toBeFocused();
  await recall.input.fill('What soil does moss need?');
  await recall.input.press('Enter');
  await expect(recall.memories.filter({ hasText: 'slightly acidic' })).toHaveCount(1, { timeout: 30_000 });
  await expect(recall.dropped.first()).toBeVisible();
  await expect(recall.gate).toHaveAttribute('data-reason', 'no-llm');
  await recall.copyButton.click();
  await expect(page.getByTestId('recall-copy-status')).toHaveAttribute('data-state', 'copied');
  const copied = await recall.clipboard();
  expect(copied).toBe(await recall.packageText());
  expect(copied).toContain(MOSS_ANSWER);
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await context.setOffline(false);
});
