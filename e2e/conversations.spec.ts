import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { chatgptConversation, text } from '../tests/factories/import-fixtures';
import { ImportPage } from './pages/import';
import { InboxPage } from './pages/inbox';

/**
 * The Conversations screen: in the navigation, full-text search over messages with marked hits,
 * the filters (source, dates, has decisions) and sorts, a hit opened by keyboard, a conversation's
 * branches switched, and the links between a conversation, its Inbox candidates and kept notes,
 * both ways. Fixtures are written here (no optional data).
 */

/** A ChatGPT conversation (November 2023) whose first answer was regenerated: the old answer is another branch. */
const MOSS = chatgptConversation(
  [
    {
      id: 'q1',
      parent: null,
      role: 'user',
      content: text('My moss lawn is turning brown in the sun. What should I do?'),
      time: 1_700_000_000,
    },
    {
      id: 'a-old',
      parent: 'q1',
      role: 'assistant',
      content: text('Replace it with sphagnum peat and cover it with shade cloth.'),
      time: 1_700_000_010,
    },
    {
      id: 'a-new',
      parent: 'q1',
      role: 'assistant',
      content: text('Brown moss is dry moss: mist the moss at dawn and add shade.'),
      time: 1_700_000_020,
    },
    { id: 'q2', parent: 'a-new', role: 'user', content: text('How often should I mist it?'), time: 1_700_000_030 },
    { id: 'a2', parent: 'q2', role: 'assistant', content: text('Twice a day while it recovers.'), time: 1_700_000_040 },
  ],
  'a2',
  { id: 'moss-lawn', title: 'Brown moss lawn', create_time: 1_700_000_000, update_time: 1_700_000_040 },
);
/** A ChatGPT conversation from March 2024 that mentions moss once. */
const STONES = chatgptConversation(
  [
    { id: 'q1', parent: null, role: 'user', content: text('Which stones suit a dry garden with a little moss?'), time: 1_710_000_000 },
    { id: 'a1', parent: 'q1', role: 'assistant', content: text('Granite boulders and raked gravel.'), time: 1_710_000_010 },
  ],
  'a1',
  { id: 'stones', title: 'Stones for a dry garden', create_time: 1_710_000_000, update_time: 1_710_000_010 },
);
/** A pasted transcript with a decision the rule-based extractor proposes (undated). */
const WALL = [
  'User: Does moss grow on the north wall of the tea house?',
  'Assistant: Yes, moss likes the shade and the damp of a north wall.',
  "User: I've decided to keep the moss on the north wall and never pressure-wash it.",
  'Assistant: Then brush off fallen leaves in autumn so the moss gets light.',
].join('\n');
const WALL_TITLE = 'Does moss grow on the north wall of the tea house?';

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

const hitTitles = (page: Page) => page.getByTestId('conversation-hit').getByRole('heading');

async function fillVault(page: Page): Promise<void> {
  const importPage = new ImportPage(page);
  await importPage.open();
  await importPage.upload([
    { name: 'conversations.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify([MOSS, STONES])) },
  ]);
  expect((await importPage.storedCounts()).conversations).toBe(2);
  await importPage.open();
  await importPage.paste(WALL);
  expect((await importPage.storedCounts()).conversations).toBe(1);
  // Extraction proposes the decision; the index holds every conversation by then.
  await new InboxPage(page).open();
  await new InboxPage(page).waitForCandidates();
  await page
    .getByRole('button', { name: /Brown moss lawn/u })
    .first()
    .click();
  await expect(page.getByTestId('inbox-group-conversation').first()).toHaveText('Brown moss lawn');
}

test('an empty vault: Conversations is in the navigation and says how to fill it', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('nav-conversations').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Conversations' })).toBeVisible();
  await expect(page.getByTestId('conversations-empty')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('search, filter, sort, open a hit by keyboard with its words marked, switch a branch, follow links both ways', async ({ page }) => {
  test.setTimeout(180_000);
  await fillVault(page);

  await page.getByTestId('nav-conversations').click();
  await expect(page.getByTestId('conversation-item')).toHaveCount(3);

  // Browsing: sort by size.
  await page.getByTestId('conversations-sort').selectOption('largest');
  await expect(page.getByTestId('conversation-item').first()).toContainText('Brown moss lawn');
  await page.getByTestId('conversations-sort').selectOption('');

  // "/" focuses the search box; results come as you type, with the words marked.
  await page.locator('body').press('/');
  await expect(page.getByTestId('conversations-search')).toBeFocused();
  await page.keyboard.type('moss');
  await expect(page.getByTestId('conversation-hit')).toHaveCount(3, { timeout: 20_000 });
  await expect(hitTitles(page).first()).toContainText('Brown moss lawn');
  const firstMarks = page.getByTestId('conversation-hit').first().getByTestId('hit-mark');
  await expect(firstMarks.first()).toHaveText(/^moss$/iu);
  await expect(page.getByTestId('conversations-count')).toContainText('3 conversations match');
  expect(await seriousViolations(page)).toEqual([]);

  // Filters: source, date range, has decisions.
  await page.getByTestId('conversations-source').selectOption('transcript');
  await expect(page.getByTestId('conversation-hit')).toHaveCount(1);
  await expect(hitTitles(page)).toHaveText([WALL_TITLE]);
  await page.getByTestId('conversations-source').selectOption('');
  await page.getByTestId('conversations-from').fill('2024-01-01');
  await expect(page.getByTestId('conversation-hit')).toHaveCount(1);
  await expect(hitTitles(page)).toHaveText(['Stones for a dry garden']);
  await page.getByTestId('conversations-from').fill('');
  await expect(page.getByTestId('conversation-hit')).toHaveCount(3);
  await page.getByTestId('conversations-decisions').check();
  await expect(hitTitles(page)).toHaveText([WALL_TITLE]);
  await page.getByTestId('conversations-decisions').uncheck();
  // Sort the hits by date: the undated transcript goes last.
  await page.getByTestId('conversations-sort').selectOption('newest');
  await expect(hitTitles(page)).toHaveText(['Stones for a dry garden', 'Brown moss lawn', WALL_TITLE]);
  await page.getByTestId('conversations-sort').selectOption('');
  await expect(hitTitles(page).first()).toContainText('Brown moss lawn');

  // Results are reachable by Tab; Enter in the box opens the first hit at its message, words marked,
  // even when pressed before the results for the words just typed arrived. The filter goes along.
  await page.getByTestId('conversations-source').selectOption('chatgpt');
  await expect(page.getByTestId('conversation-hit')).toHaveCount(2);
  await page.getByTestId('conversations-search').focus();
  await page.keyboard.type(' lawn');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/conversations\/[^?]+\?q=moss%20lawn&source=chatgpt#m-/u);
  await expect(page.getByRole('heading', { level: 1, name: 'Brown moss lawn' })).toBeVisible();
  await expect(page.getByTestId('conversation-query')).toContainText('matches of “moss lawn” marked');
  const target = page.locator(':focus');
  await expect(target).toHaveAttribute('data-testid', 'message');
  await expect(target.getByTestId('hit-mark').first()).toHaveText(/^(moss|lawn)$/iu);

  // Branches: the visible thread by default, the regenerated answer one click away.
  const thread = page.getByTestId('conversation-thread');
  await expect(thread).toHaveAttribute('data-branch', 'visible');
  await expect(thread).not.toContainText('sphagnum');
  await expect(page.getByTestId('branch-option')).toHaveCount(2);
  await page.getByTestId('branch-option').nth(1).click();
  await expect(thread).toContainText('sphagnum');
  await expect(thread).not.toContainText('Twice a day');
  await expect(page.locator('[data-branch-own="true"]')).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByTestId('branch-option').first().click();
  await expect(thread).toContainText('Twice a day');

  // Back to the results, with the search kept: the words, the filter and the Source options.
  await page.getByTestId('conversation-back').click();
  await expect(page.getByTestId('conversations-search')).toHaveValue('moss lawn');
  await expect(page.getByTestId('conversations-source')).toHaveValue('chatgpt');
  await expect(page.getByTestId('conversations-source').locator('option')).toHaveText(['All sources', 'chatgpt', 'transcript']);
  await expect(page.getByTestId('conversation-hit')).toHaveCount(2);
  await page.getByTestId('conversations-source').selectOption('');
  await page.getByTestId('conversations-search').fill('moss');
  await expect(page.getByTestId('conversation-hit')).toHaveCount(3);

  // The conversation with a decision: to its candidates in the Inbox and back.
  await page.getByTestId('conversation-hit').filter({ hasText: WALL_TITLE }).getByTestId('conversation-hit-link').click();
  await expect(page.getByRole('heading', { level: 1, name: WALL_TITLE })).toBeVisible();
  await expect(page.getByTestId('conversation-decisions')).toBeVisible();
  await page.getByTestId('conversation-link-inbox').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  await expect(page.getByTestId('inbox-group').first()).toBeVisible();
  // Only this conversation's groups (the other two conversations have candidates too: see fillVault).
  await expect(page.getByTestId('inbox-group-conversation').first()).toBeVisible();
  for (const link of await page.getByTestId('inbox-group-conversation').all()) await expect(link).toHaveText(WALL_TITLE);
  // Keep one candidate, then follow its group back to the conversation.
  await new InboxPage(page).press('a');
  await expect(page.getByTestId('undo-toast').last()).toContainText('Kept');
  await page.getByTestId('inbox-group-conversation').first().click();
  await expect(page.getByRole('heading', { level: 1, name: WALL_TITLE })).toBeVisible();

  // To its kept notes and back.
  await expect(page.getByTestId('conversation-link-notes')).toHaveText('1 kept note');
  await page.getByTestId('conversation-link-notes').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Notes' })).toBeVisible();
  await expect(page.getByTestId('notes-conversation-filter')).toBeVisible();
  await expect(page.getByTestId('note-item')).toHaveCount(1);
  await page.getByTestId('note-conversation').first().click();
  await expect(page.getByRole('heading', { level: 1, name: WALL_TITLE })).toBeVisible();
});

test('a search that matches nothing says so and offers to clear the filters', async ({ page }) => {
  test.setTimeout(120_000);
  await fillVault(page);
  await page.goto('/conversations?q=moss&source=chatgpt&from=2030-01-01');
  await expect(page.getByTestId('conversations-no-hits')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('conversations-no-hits').getByRole('button', { name: 'Clear the filters' }).click();
  await expect(page.getByTestId('conversation-hit')).toHaveCount(3);
  await page.getByTestId('conversations-search').fill('xylophone');
  await expect(page.getByTestId('conversations-no-hits')).toBeVisible();
});
