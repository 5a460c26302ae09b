import { expect, test } from '@playwright/test';
import { InboxPage } from './pages/inbox';
import { ImportPage } from './pages/import';

/** The Overview screen: the archive per month, topics, and a subject's thread as a timeline, each with its text equivalent. */

const DAY = 86_400;
const JAN_10_2024 = Date.UTC(2024, 0, 10, 12) / 1000;

function conversation(id: string, title: string, start: number, turns: string[]) {
  const mapping: Record<string, unknown> = { root: { id: 'root', parent: null, children: ['m0'], message: null } };
  turns.forEach((text, i) => {
    mapping[`m${i}`] = {
      id: `m${i}`,
      parent: i === 0 ? 'root' : `m${i - 1}`,
      children: i + 1 < turns.length ? [`m${i + 1}`] : [],
      message: {
        id: `m${i}`,
        author: { role: i % 2 ? 'assistant' : 'user' },
        create_time: start + i * 60,
        content: { content_type: 'text', parts: [text] },
      },
    };
  });
  return { id, title, create_time: start, mapping, current_node: `m${turns.length - 1}` };
}

const EXPORT = JSON.stringify([
  conversation('c1', 'Moss garden soil', JAN_10_2024, [
    'What soil does the moss garden behind the tea house need?',
    'Moss prefers shade, constant moisture and slightly acidic, compacted soil, as in the temple gardens of Kyoto.',
    "I've decided to use acidic clay soil for the moss garden.",
    'Good: keep fallen leaves off the moss in autumn.',
  ]),
  conversation('c2', 'Moss garden watering', JAN_10_2024 + 40 * DAY, [
    'How often should I water the moss garden in summer?',
    'Mist the moss daily in dry weather, as the gardeners in Kyoto do; never flood it.',
    "I've decided to mist the moss garden every morning instead of using acidic clay.",
    'Is the drip line long enough to reach the tea house?',
  ]),
  conversation('c3', 'Rain barrel overflow', JAN_10_2024 + 75 * DAY, [
    'Where should the rain barrel overflow go?',
    'Lead it to a rain garden bed three metres from the foundation.',
  ]),
]);

test('an empty vault says what the overview will show', async ({ page }) => {
  await page.goto('/overview');
  await expect(page.getByTestId('overview-empty')).toBeVisible();
});

test('the overview charts the archive per month, its topics and a thread, each with a text equivalent', async ({ page }) => {
  test.setTimeout(120_000);
  const importPage = new ImportPage(page);
  await importPage.open();
  await importPage.upload([{ name: 'conversations.json', mimeType: 'application/json', buffer: Buffer.from(EXPORT) }]);
  expect(await importPage.storedCounts()).toEqual({ conversations: 3, messages: 10 });
  const inbox = new InboxPage(page);
  await inbox.open();
  await inbox.waitForCandidates();
  // Keep the decisions, one group ("Keep all") at a time.
  const keepDecisions = page.locator('[data-testid="inbox-group"][data-category="Decisions"] [data-testid="inbox-keep-group"]');
  for (let groups = await keepDecisions.count(); groups > 0; groups--) {
    await keepDecisions.first().click();
    await expect(keepDecisions).toHaveCount(groups - 1);
  }

  await page.goto('/');
  await page.getByTestId('recall-overview-link').getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.getByTestId('overview-totals')).toContainText('3 conversations, 10 messages');
  await expect(page.getByTestId('overview-totals')).toContainText('(2 decisions)');

  // Month by month, January to March 2024, as bars and as a table.
  const table = page.getByTestId('overview-monthly-table');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(table.locator('tbody tr').nth(0)).toHaveText(/Jan 2024\s*1\s*1/u);
  await expect(table.locator('tbody tr').nth(1)).toHaveText(/Feb 2024\s*1\s*1/u);
  await expect(table.locator('tbody tr').nth(2)).toHaveText(/Mar 2024\s*1\s*0/u);
  await expect(page.getByTestId('overview-monthly').locator('svg rect')).toHaveCount(6);
  await expect(page.getByTestId('overview-monthly').locator('svg')).toHaveAttribute(
    'aria-label',
    /3 conversations and 2 kept decisions from Jan 2024 to Mar 2024/u,
  );

  // Terms shared by the two moss conversations (titles and kept notes), each counted once per conversation.
  const topics = page.getByTestId('overview-topics').locator('li');
  await expect(topics.filter({ hasText: /^moss\b/u })).toContainText('2 conversations');
  await expect(topics.filter({ hasText: /^garden\b/u })).toContainText('2 conversations');
  // Entities from the index worker's entity graph: Kyoto is named in two conversations.
  await expect(
    page
      .getByTestId('overview-entities')
      .locator('li')
      .filter({ hasText: /^Kyoto\b/u }),
  ).toContainText('2 conversations');

  // The moss thread: two sessions, decisions on the timeline and in the list.
  await expect(page.getByTestId('overview-subject')).toContainText('Moss garden soil → Moss garden watering');
  await expect(page.getByTestId('overview-thread').locator('svg circle.decided')).toHaveCount(2);
  await expect(page.getByTestId('overview-thread-list').locator('li[data-stage="decided"]')).toHaveCount(2);
  await expect(page.getByTestId('overview-thread-list')).toContainText('Moss garden watering');

  // A session on the thread links to its conversation, whose page shows the same thread map.
  await page.getByTestId('thread-conversation').filter({ hasText: 'Moss garden watering' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Moss garden watering' })).toBeVisible();
  await expect(page.getByTestId('thread-map')).toBeVisible();
});
