import { expect, test } from '@playwright/test';
import { AppShell } from './pages/app';

test.describe('app shell', () => {
  test('every screen renders with a useful empty state, reachable from the navigation', async ({ page }) => {
    const app = new AppShell(page);
    await app.open('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Recall' })).toBeVisible();
    await expect(page.getByTestId('recall-empty-vault')).toContainText('Import');

    const screens = [
      ['import', 'Import', 'import-empty'],
      ['inbox', 'Inbox', 'inbox-empty'],
      ['notes', 'Notes', 'notes-empty'],
    ] as const;
    for (const [nav, heading, empty] of screens) {
      await app.nav(nav).click();
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByTestId(empty)).toBeVisible();
      await expect(app.nav(nav)).toHaveAttribute('aria-current', 'page');
    }
    await app.nav('settings').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await app.nav('recall').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Recall' })).toBeVisible();
  });

  test('the recall box has focus on load', async ({ page }) => {
    await new AppShell(page).open('/');
    await expect(page.getByTestId('recall-input')).toBeFocused();
  });

  test('a deep link renders its screen directly', async ({ page }) => {
    await new AppShell(page).open('/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  });

  test('the storage panel shows quota, usage and persistence', async ({ page }) => {
    await new AppShell(page).open('/settings');
    const panel = page.getByTestId('storage-status');
    await expect(panel).toBeVisible();
    await expect(panel.getByTestId('storage-quota')).toHaveText(/\d+(\.\d)? (KB|MB|GB|TB)/);
    await expect(panel.getByTestId('storage-usage')).toHaveText(/\d+(\.\d)? (B|KB|MB|GB)/);
    await expect(panel.getByTestId('storage-persisted')).toHaveText(/Persisted|Not persisted/);
  });

  test('the background worker starts and reports the queue', async ({ page }) => {
    await new AppShell(page).open('/settings');
    await expect(page.getByTestId('jobs-panel')).toContainText(/\d+ waiting, \d+ running, \d+ done, \d+ failed/);
  });

  test('the app is cross-origin isolated, so multi-threaded WASM can run', async ({ page }) => {
    await new AppShell(page).open('/');
    expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
  });
});
