import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { ImportPage } from './pages/import';
import { InboxPage } from './pages/inbox';

/**
 * The quality gate decides (issue 17, item 5). The rule-based extractor already writes one claim
 * per candidate, so the two-claim candidates here come the way they reach a real Inbox without a
 * model: an agent in the page remembers them (WebMCP, through the maintained polyfill, as
 * e2e/webmcp.spec.ts does) and the person allows it. Keep is refused for a two-claim candidate;
 * split writes one candidate per claim, undo brings the original back; "keep all" skips the
 * flagged one and says so.
 */
const POLYFILL = readFileSync(new URL('../node_modules/@mcp-b/webmcp-polyfill/dist/index.iife.js', import.meta.url), 'utf8');

const CHAT = ['User: Which bike route do I take to the climbing gym on rainy days?', 'Assistant: Take the canal path on rainy days.'].join(
  '\n',
);
const TWO_CLAIMS = 'The climbing gym closes at ten on Fridays. The bouldering room reopens in March.';
const CLEAN = 'The climbing gym sells day passes at the desk.';

async function remember(page: Page, text: string): Promise<void> {
  const answer = page.evaluate(async (text) => {
    const context = (
      document as unknown as {
        modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, args: string): Promise<string> };
      }
    ).modelContext;
    const tool = (await context.getTools()).find((t) => t.name === 'remember')!;
    return JSON.parse(await context.executeTool(tool, JSON.stringify({ text, category: 'Facts' }))) as { isError?: boolean };
  }, text);
  await expect(page.getByTestId('webmcp-remember-text')).toHaveText(text);
  await page.getByTestId('webmcp-allow').click();
  expect((await answer).isError).toBeFalsy();
}

test('a two-claim candidate cannot be kept as it is: split it (undo brings it back); keep all skips it and says so', async ({ page }) => {
  test.setTimeout(180_000);
  await page.addInitScript({ content: POLYFILL });
  const importPage = new ImportPage(page);
  await importPage.open();
  await importPage.paste(CHAT);
  expect((await importPage.storedCounts()).conversations).toBe(1);
  // The chat's own candidates first: the Inbox cursor is a position, so the list must be settled before the keys.
  const inbox = new InboxPage(page);
  await inbox.open();
  await expect(inbox.items().filter({ hasText: 'Take the canal path on rainy days.' })).toHaveCount(1, { timeout: 90_000 });
  await page.goto('/settings');
  await expect(page.getByTestId('webmcp-status')).toHaveAttribute('data-status', 'registered', { timeout: 60_000 });
  await remember(page, TWO_CLAIMS);
  await remember(page, CLEAN);

  await page.getByTestId('nav-inbox').click();
  await expect(inbox.items()).toHaveCount(4);
  const flagged = inbox.items().filter({ hasText: TWO_CLAIMS });
  await expect(flagged).toHaveCount(1);
  await expect(flagged.locator('[data-testid="inbox-flag"][data-flag="several-claims"]')).toHaveCount(1);
  await expect(flagged.getByTestId('inbox-gate')).toHaveAttribute('data-flags', 'several-claims');
  await expect(flagged.getByTestId('inbox-keep')).toBeDisabled();

  // The keyboard too: "a" on it keeps nothing and says what to do.
  await flagged.getByTestId('inbox-text').click();
  await expect(flagged).toHaveAttribute('data-selected', 'true');
  await inbox.press('a');
  await expect(page.getByTestId('inbox-notice')).toContainText('Split it (s)');
  await expect(flagged).toHaveCount(1);

  // s splits it into its claims, each a candidate of its own (from the agent, like the original).
  await expect(flagged).toHaveAttribute('data-selected', 'true');
  await inbox.press('s');
  await expect(inbox.items().filter({ hasText: TWO_CLAIMS })).toHaveCount(0);
  const piece = (text: string) => inbox.items().filter({ has: page.getByTestId('inbox-text').getByText(text, { exact: true }) });
  const first = piece('The climbing gym closes at ten on Fridays.');
  const second = piece('The bouldering room reopens in March.');
  await expect(first).toHaveCount(1);
  await expect(second).toHaveCount(1);
  await expect(first.locator('[data-testid="inbox-flag"][data-flag="from-agent"]')).toHaveCount(1);
  await expect(first.getByTestId('inbox-keep')).toBeEnabled();
  await expect(page.getByTestId('undo-toast').last()).toContainText('Split into claims');

  // Undo brings the original back and removes the pieces.
  await page.getByTestId('undo-toast').last().getByTestId('undo-toast-undo').click();
  await expect(inbox.items().filter({ hasText: TWO_CLAIMS })).toHaveCount(1);
  await expect(second).toHaveCount(0);

  // Keep all in its group keeps the clean candidate and skips the flagged one, and says how many.
  const group = page.locator('[data-testid="inbox-group"]').filter({ hasText: TWO_CLAIMS });
  await expect(group.getByTestId('inbox-keep-group-skips')).toHaveText(' (skips 1 flagged)');
  await group.getByTestId('inbox-keep-group').click();
  await expect(page.getByTestId('inbox-notice')).toContainText('skipped 1 flagged');
  await expect(inbox.items().filter({ hasText: CLEAN })).toHaveCount(0);
  await expect(inbox.items().filter({ hasText: TWO_CLAIMS })).toHaveCount(1);
});
