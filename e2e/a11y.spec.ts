import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ImportPage } from './pages/import';
import { InboxPage } from './pages/inbox';
import { MOSS_TEA, MOSS_TRANSCRIPT } from './recall-fixtures';

/**
 * axe-core (through @axe-core/playwright 4.14) on every screen, with an empty vault and a filled
 * one, in the light and the dark theme: no serious or critical violation of WCAG 2.1 A/AA rules.
 * Each screen is opened once and judged in both themes (the system theme is switched under it;
 * the page's background shows the switch took).
 */

const SCREENS = ['/', '/overview', '/import', '/inbox', '/notes', '/conversations', '/capture', '/settings'] as const;
const SCHEMES = [
  { scheme: 'light', background: 'rgb(247, 246, 242)' },
  { scheme: 'dark', background: 'rgb(20, 23, 31)' },
] as const;

interface Found {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

async function seriousViolations(page: Page): Promise<Found[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
}

/** Judges the screen on show in both themes; what is found is keyed "<screen> (<theme>)". */
async function judge(page: Page, screen: string, found: Record<string, Found[]>): Promise<void> {
  for (const { scheme, background } of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe(background);
    const violations = await seriousViolations(page);
    if (violations.length > 0) found[`${screen} (${scheme})`] = violations;
  }
}

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // Screens fill in from the workers; let them settle before judging.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
}

async function checkEveryScreen(page: Page): Promise<Record<string, Found[]>> {
  const found: Record<string, Found[]> = {};
  for (const path of SCREENS) {
    await open(page, path);
    await judge(page, path, found);
  }
  return found;
}

const TRANSCRIPT = [
  'User: My Japanese maple stands in a small courtyard garden. When should I prune it?',
  'Assistant: Prune Japanese maples in late winter while they are dormant. Never remove more than a quarter of the canopy in one year.',
  "User: I've decided to prune the maple in late February. I need to buy sharp bypass pruners first.",
  'Assistant: Is the soil acidic? Moss prefers acidic, shaded soil.',
].join('\n');

test('every screen of an empty vault has no serious or critical axe violation (light and dark)', async ({ page }) => {
  // Eight screens, each waiting for the network to settle and then running axe twice.
  test.setTimeout(120_000);
  expect(await checkEveryScreen(page)).toEqual({});
});

test('every screen of a filled vault has no serious or critical axe violation (light and dark)', async ({ page }) => {
  test.setTimeout(180_000);
  const importPage = new ImportPage(page);
  await importPage.open();
  for (const text of [TRANSCRIPT, MOSS_TRANSCRIPT, MOSS_TEA]) {
    await importPage.paste(text);
    await expect(page.getByTestId('import-report')).toBeVisible({ timeout: 60_000 });
  }
  const inbox = new InboxPage(page);
  await inbox.open();
  await inbox.waitForCandidates();
  await inbox.press('a');
  await expect(page.getByTestId('undo-toast').last()).toContainText('Kept');

  const found = await checkEveryScreen(page);
  // A conversation's page, and Recall with an answer on screen.
  await open(page, '/conversations');
  await page.getByTestId('conversation-item').first().getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await judge(page, '/conversations/[id]', found);
  await open(page, '/');
  await page.getByTestId('recall-input').fill('what soil does the moss want');
  await page.getByTestId('recall-input').press('Enter');
  await expect(page.getByTestId('recall-summary')).toBeVisible({ timeout: 30_000 });
  await judge(page, '/ (answer)', found);
  expect(found).toEqual({});
});
