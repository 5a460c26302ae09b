import { expect, test } from '@playwright/test';
import { ImportPage } from './pages/import';
import { IndexPanels } from './pages/index-panels';
import { RecallPage } from './pages/recall';

/**
 * The first things a person asks after an import name no subject: "What did I decide?", "What did we
 * talk about?". Recall lists the decisions (the Inbox's candidates) and the session summaries, says so,
 * and does not answer "the vault holds nothing on this".
 */
const CAT = [
  'User: Miso, my cat, is overweight. The vet, Dr. Patel, wants her to lose 400 grams.',
  'Assistant: Measure portions and switch Miso to wet food twice a day.',
  "User: Decision: Miso gets wet food twice a day and no more dry food. I'll weigh her every Sunday.",
].join('\n');

test('a prompt with no subject lists the decisions and the conversations instead of refusing', async ({ page }) => {
  test.setTimeout(120_000);
  const importPage = new ImportPage(page);
  const panels = new IndexPanels(page);
  const recall = new RecallPage(page);
  await importPage.open();
  await importPage.paste(CAT);
  expect((await importPage.storedCounts()).conversations).toBe(1);
  await expect(page.getByTestId('extract-done')).toBeVisible({ timeout: 60_000 });
  await panels.openSettings();
  await panels.waitUpToDate();

  await recall.open();
  await recall.input.fill('What did I decide?');
  await recall.input.press('Enter');
  await expect(page.getByTestId('recall-scope')).toHaveAttribute('data-kind', 'notes');
  await expect(page.getByTestId('recall-scope')).toContainText('listing your decisions, newest first');
  await expect(recall.results.filter({ hasText: 'wet food twice a day' }).first()).toBeVisible();
  await expect(page.getByTestId('recall-empty')).toHaveCount(0);
  expect(await recall.packageText()).toContain('wet food twice a day');

  await recall.input.fill('What did we talk about?');
  await recall.input.press('Enter');
  await expect(page.getByTestId('recall-scope')).toHaveAttribute('data-kind', 'sessions');
  await expect(recall.structural.first().getByTestId('recall-result-structure')).toHaveText('Session summary');
  await expect(page.getByTestId('recall-empty')).toHaveCount(0);
});
