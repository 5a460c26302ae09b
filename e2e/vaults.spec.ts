import { expect, test, type Page } from '@playwright/test';
import { ImportPage } from './pages/import';
import { IndexPanels } from './pages/index-panels';
import { RecallPage } from './pages/recall';
import { VaultSwitcher } from './pages/vaults';

/** Two chats that share their words ("garden", "plan") and differ in one word each. */
const PERSONAL_CHAT = [
  'User: What should the garden plan include for the quince tree this spring?',
  'Assistant: The garden plan gives the quince tree a sunny corner and a mulch ring.',
].join('\n');
const WORK_CHAT = [
  'User: What should the garden plan include for the office courtyard kiosk this spring?',
  'Assistant: The garden plan gives the courtyard kiosk planters on both sides.',
].join('\n');

async function importInto(page: Page, text: string): Promise<void> {
  const importPage = new ImportPage(page);
  await importPage.open();
  await importPage.paste(text);
  expect((await importPage.storedCounts()).conversations).toBe(1);
}

async function recallTexts(page: Page, prompt: string): Promise<string> {
  const panels = new IndexPanels(page);
  await panels.openSettings();
  await panels.waitUpToDate();
  const recall = new RecallPage(page);
  await recall.open();
  await recall.input.fill(prompt);
  await recall.input.press('Enter');
  await expect(recall.results.first()).toBeVisible({ timeout: 30_000 });
  return (await recall.results.allTextContents()).join('\n') + (await recall.dropped.allTextContents()).join('\n');
}

test('two vaults: each recalls only its own chats; the name is always shown; switching is a shortcut and a picker', async ({ page }) => {
  test.setTimeout(240_000);
  const vaults = new VaultSwitcher(page);
  await page.goto('/');
  await expect(vaults.name).toHaveText('Personal');

  await importInto(page, PERSONAL_CHAT);
  await vaults.openWithShortcut();
  await vaults.create('Work');
  await vaults.switchTo('Work');
  // The shell names the vault on every screen.
  await page.goto('/inbox');
  await expect(vaults.name).toHaveText('Work');

  // More than one vault: Import asks which one, the last used (this one) preselected.
  const importPage = new ImportPage(page);
  await importPage.open();
  await expect(page.getByTestId('vault-target')).toBeVisible();
  await expect(page.getByTestId('vault-target').locator('option:checked')).toHaveText(/^Work/u);
  await importInto(page, WORK_CHAT);

  const inWork = await recallTexts(page, 'garden plan for this spring');
  expect(inWork).toContain('courtyard kiosk');
  expect(inWork).not.toContain('quince');

  await vaults.openWithShortcut();
  await page.keyboard.press('Escape');
  await expect(vaults.picker).toHaveCount(0);
  await vaults.switchTo('Personal');
  const inPersonal = await recallTexts(page, 'garden plan for this spring');
  expect(inPersonal).toContain('quince');
  expect(inPersonal).not.toContain('courtyard kiosk');
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
});

test('deleting a vault asks for its name; the vault open in the tab cannot be deleted', async ({ page }) => {
  test.setTimeout(120_000);
  const vaults = new VaultSwitcher(page);
  await page.goto('/');
  await vaults.create('Scratch');
  const row = vaults.row('Scratch');
  // The vault open here has no delete button.
  await expect(vaults.row('Personal').getByTestId('vault-option')).toBeVisible();
  await expect(vaults.row('Personal').getByTestId('vault-delete')).toHaveCount(0);
  await row.getByTestId('vault-delete').click();
  const go = page.getByTestId('vault-delete-go');
  await expect(go).toBeDisabled();
  await page.getByTestId('vault-delete-confirm').fill('scratch');
  await expect(go).toBeDisabled();
  await page.getByTestId('vault-delete-confirm').fill('Scratch');
  await expect(go).toBeEnabled();
  await go.click();
  await expect(vaults.option('Scratch')).toHaveCount(0);
  const databases = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
  expect(databases).toContain('engram-vault');
  expect(databases.some((name) => name?.startsWith('engram-vault-vault'))).toBe(false);
});
