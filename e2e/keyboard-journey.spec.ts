import { expect, test, type Page } from '@playwright/test';

/**
 * The whole journey by keyboard alone: import a conversation, recall, copy the package, keep a
 * candidate in the Inbox. The test never clicks: it moves with Tab, follows links with Enter, types
 * and uses the app's shortcuts. After each route change focus sits on the new screen's heading (or
 * its first control), and the focused control shows a visible focus ring.
 */

const TRANSCRIPT = [
  'User: The rain barrel overflows onto the patio every storm. Where should the overflow hose go?',
  'Assistant: Lead the overflow hose to the rain garden bed at least three metres from the foundation.',
  "User: I've decided to route the overflow hose to the rain garden bed by the fence.",
  'Assistant: Check the bed drains within a day so mosquitoes cannot breed in standing water.',
].join('\n');

/** Presses Tab until the focused element matches `selector` (at most `limit` presses). */
async function tabTo(page: Page, selector: string, limit = 80, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`Tab never reached ${selector}`);
}

async function focusRing(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    return style.outlineStyle === 'none' || style.outlineWidth === '0px' ? 'none' : `${style.outlineStyle} ${style.outlineWidth}`;
  });
}

async function goByKeyboard(page: Page, nav: 'recall' | 'import' | 'inbox' | 'notes'): Promise<void> {
  await tabTo(page, `[data-testid="nav-${nav}"]`);
  expect(await focusRing(page)).not.toBe('none');
  await page.keyboard.press('Enter');
}

test('import, recall, copy and keep in the Inbox by keyboard alone, with focus managed on every screen', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseURL ?? '').origin });
  await page.goto('/');
  await expect(page.getByTestId('recall-input')).toBeFocused();

  // Back up to the skip link (the first stop on every screen): it shows when focused and jumps
  // past the navigation.
  await tabTo(page, 'a.skip', 20, 'Shift+Tab');
  expect(await focusRing(page)).not.toBe('none');
  await expect(page.locator('a.skip')).toBeInViewport();

  // Import: paste a transcript and import it with Ctrl+Enter.
  await goByKeyboard(page, 'import');
  await expect(page).toHaveURL(/\/import$/u);
  await expect(page.getByRole('heading', { level: 1, name: 'Import' })).toBeFocused();
  await tabTo(page, '[data-testid="import-paste"]');
  await page.keyboard.insertText(TRANSCRIPT);
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('report-conversations-stored')).toHaveText('1', { timeout: 60_000 });

  // Recall: the box has focus on arrival; Enter runs, Ctrl+Enter copies.
  await goByKeyboard(page, 'recall');
  const box = page.getByTestId('recall-input');
  await expect(box).toBeFocused();
  await page.keyboard.type('where does the rain barrel overflow hose go');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('recall-package')).toContainText('rain garden', { timeout: 30_000 });
  await expect(box).toBeFocused();
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('rain garden');

  // Inbox: keep the first candidate with "a".
  await goByKeyboard(page, 'inbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeFocused();
  await expect(page.getByTestId('extract-done')).toBeVisible({ timeout: 30_000 });
  const items = page.getByTestId('inbox-item');
  await expect(items.first()).toBeVisible();
  const before = await items.count();
  const kept = (await page.locator('[data-testid="inbox-item"][data-selected="true"] [data-testid="inbox-text"]').textContent())!.trim();
  await page.keyboard.press('a');
  await expect(items).toHaveCount(before - 1);

  // The kept note is on the Notes screen.
  await goByKeyboard(page, 'notes');
  await expect(page.getByRole('heading', { level: 1, name: 'Notes' })).toBeFocused();
  await expect(page.getByText(kept, { exact: false }).first()).toBeVisible();
});

test('a confirmation takes focus, Escape closes it and focus returns to the button that opened it', async ({ page }) => {
  await page.goto('/settings');
  await page
    .getByTestId('vault-file-input')
    .setInputFiles({ name: 'v.engram', mimeType: 'application/octet-stream', buffer: Buffer.from('x') });
  await tabTo(page, '[data-testid="vault-import"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('vault-restore-confirm-no')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('vault-restore-confirm')).toHaveCount(0);
  await expect(page.getByTestId('vault-import')).toBeFocused();
});
