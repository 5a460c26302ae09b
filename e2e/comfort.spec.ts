import { expect, test, type Page } from '@playwright/test';
import { ImportPage } from './pages/import';

/** Comfort: theme (system or chosen), dates and numbers in the person's locale, the install offer, app shortcuts. */

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

test.describe('theme', () => {
  test.use({ colorScheme: 'dark' });

  test('follows the system, and a choice in Settings overrides it and survives a reload', async ({ page }) => {
    await page.goto('/settings');
    await expect(page.getByTestId('theme-system')).toBeChecked();
    expect(await background(page)).toBe('rgb(20, 23, 31)');
    await page.getByTestId('theme-light').check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(await background(page)).toBe('rgb(247, 246, 242)');
    await page.reload();
    await expect(page.getByTestId('theme-light')).toBeChecked();
    expect(await background(page)).toBe('rgb(247, 246, 242)');
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#1f2a44');
    await page.getByTestId('theme-system').check();
    await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./u);
    expect(await background(page)).toBe('rgb(20, 23, 31)');
  });
});

test.describe('locale', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

  test('dates and numbers follow the browser language', async ({ page }) => {
    await page.goto('/settings');
    await expect(page.getByTestId('locale-sample')).toContainText('(de-DE): 05.03.2024, 15:30 · 1.234.567 · 0,5');
    await page.goto('/');
    await expect(page.getByTestId('recall-target').locator('option').first()).toContainText(/\d\.\d{3} tokens/u);
  });
});

test('the install offer waits for a useful moment and replays the browser prompt', async ({ page }) => {
  // Headless Chromium never fires beforeinstallprompt: the test dispatches one, as the browser would
  // when the app is installable, with a prompt() the test can observe.
  await new ImportPage(page).open();
  await page.evaluate(() => {
    const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
      prompt(): Promise<void>;
      userChoice: Promise<{ outcome: string }>;
    };
    (window as unknown as { __prompted: number }).__prompted = 0;
    event.prompt = async () => void ((window as unknown as { __prompted: number }).__prompted += 1);
    event.userChoice = Promise.resolve({ outcome: 'accepted' });
    window.dispatchEvent(event);
    (window as unknown as { __defaultPrevented: boolean }).__defaultPrevented = event.defaultPrevented;
  });
  expect(await page.evaluate(() => (window as unknown as { __defaultPrevented: boolean }).__defaultPrevented)).toBe(true);
  // Installable, but nothing useful has happened yet: no offer.
  await expect(page.getByTestId('install-offer')).toHaveCount(0);
  await new ImportPage(page).paste(
    'User: When do tulips go in?\nAssistant: Plant tulip bulbs in autumn, six weeks before the ground freezes.',
  );
  await expect(page.getByTestId('install-offer')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('install-accept').click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __prompted: number }).__prompted)).toBe(1);
  await expect(page.getByTestId('install-offer')).toHaveCount(0);
});

test('"Not now" hides the offer and is remembered', async ({ page }) => {
  await new ImportPage(page).open();
  const fire = () =>
    page.evaluate(() => {
      const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
        prompt(): Promise<void>;
        userChoice: Promise<{ outcome: string }>;
      };
      event.prompt = async () => undefined;
      event.userChoice = Promise.resolve({ outcome: 'dismissed' });
      window.dispatchEvent(event);
    });
  await fire();
  await new ImportPage(page).paste('User: Best time to sow peas?\nAssistant: Sow peas as soon as the soil can be worked in early spring.');
  await page.getByTestId('install-later').click();
  await expect(page.getByTestId('install-offer')).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('engram-install-dismissed-at'))).toMatch(/^\d+$/u);
  // A later visit, installable again and after another useful moment: still not offered.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Import' })).toBeVisible();
  await fire();
  await new ImportPage(page).paste('User: And beans?\nAssistant: Sow beans after the last frost, when the soil is warm.');
  await expect(page.getByTestId('import-report')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('install-offer')).toHaveCount(0);
});

test('the manifest offers Recall and Import as app shortcuts', async ({ page }) => {
  const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as { shortcuts: { name: string; url: string }[] };
  expect(manifest.shortcuts.map((s) => [s.name, s.url])).toEqual([
    ['Recall', '/'],
    ['Import', '/import'],
  ]);
  for (const s of manifest.shortcuts) expect((await page.request.get(s.url)).status()).toBe(200);
});
