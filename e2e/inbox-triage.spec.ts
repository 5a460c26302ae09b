import { expect, test } from '@playwright/test';
import { ImportPage } from './pages/import';
import { InboxPage } from './pages/inbox';

const TRIP = [
  'User: Help me plan a weekend trip to Lisbon in May.',
  'Assistant: Lisbon in May is warm, around 22°C. The Alfama district is old and hilly. Trams are the easiest way around the old town.',
  "User: We'll stay in Alfama, not Baixa. Our budget is at most €600 for the hotel. I need to book the hotel by Friday. Is the tram 28 worth it?",
  'Assistant: You could take tram 28 early in the morning to avoid crowds. Sintra is a 40-minute train ride away.',
  "User: Let's skip Sintra. My sister lives in Porto. The flight lands at 9 am on Saturday.",
].join('\n');

test('the Inbox by worth: counts, whole groups by keyboard, a day queue that remembers where the person stopped', async ({ page }) => {
  const importPage = new ImportPage(page);
  await importPage.open();
  await importPage.paste(TRIP);
  await importPage.storedCounts();

  const inbox = new InboxPage(page);
  await inbox.open();
  const total = await inbox.waitForCandidates();
  expect(total).toBe(13);

  // Counts per category and per conversation.
  const count = (category: string) => page.locator(`[data-testid="inbox-count-category"][data-category="${category}"]`);
  await expect(count('Decisions')).toHaveAttribute('data-count', '2');
  await expect(count('Facts')).toHaveAttribute('data-count', '6');
  await expect(page.getByTestId('inbox-count-conversation')).toHaveAttribute('data-count', String(total));

  // Worth order: decisions first, facts last (grouped under the topic the person opened).
  const categories = await inbox.groups().evaluateAll((groups) => groups.map((g) => g.getAttribute('data-category')));
  expect(categories).toEqual(['Decisions', 'Constraints', 'Action Items', 'Open Questions', 'Ideas', 'Topics', 'Facts']);
  await expect(inbox.groups().last()).toHaveAttribute('data-topic', /Lisbon/u);

  // n / p move between groups; x discards the whole group, u undoes it; g keeps the whole group.
  await expect(inbox.currentGroup()).toHaveAttribute('data-category', 'Decisions');
  await inbox.press('n');
  await expect(inbox.currentGroup()).toHaveAttribute('data-category', 'Constraints');
  await inbox.press('p');
  await expect(inbox.currentGroup()).toHaveAttribute('data-category', 'Decisions');
  await inbox.press('x');
  await expect(inbox.items()).toHaveCount(total - 2);
  await expect(page.getByTestId('undo-toast').last()).toContainText('Discarded 2');
  await inbox.press('u');
  await expect(inbox.items()).toHaveCount(total);
  await expect(inbox.currentGroup()).toHaveAttribute('data-category', 'Decisions');
  await inbox.press('g');
  await expect(inbox.items()).toHaveCount(total - 2);
  await expect(page.getByTestId('undo-toast').last()).toContainText('Kept 2 notes');
  await expect(page.getByTestId('inbox-today-progress')).toHaveAttribute('data-reviewed', '2');

  // Where the person stopped survives a reload.
  await inbox.press('j');
  await inbox.press('j');
  const stoppedAt = (await inbox.selected().getAttribute('data-note-id'))!;
  await expect(page.getByTestId('inbox-today')).toHaveAttribute('data-cursor', stoppedAt);
  await page.reload();
  await expect(inbox.items().first()).toBeVisible();
  await expect(inbox.selected()).toHaveAttribute('data-note-id', stoppedAt);

  // Review 3 today: 2 done, one left; after it the queue says so, and the rest is one key away.
  const size = page.getByTestId('inbox-today-size');
  await size.focus();
  await size.press('Control+a');
  await size.pressSequentially('3');
  await size.press('Enter');
  // Tab leaves the field: the keys are the Inbox's again.
  await size.press('Tab');
  await expect(inbox.items()).toHaveCount(1);
  await expect(inbox.items().first()).toHaveText(/budget is at most €600/u);
  await inbox.press('a');
  await expect(page.getByTestId('inbox-today-done')).toBeVisible();
  await expect(page.getByTestId('inbox-today-progress')).toHaveText('3 of 3 reviewed today');
  await page.getByTestId('inbox-show-all').focus();
  await page.keyboard.press('Enter');
  await expect(inbox.items()).toHaveCount(total - 3);

  // A category's count lists only that category.
  await count('Facts').click();
  await expect(inbox.items()).toHaveCount(6);
  expect(new Set(await inbox.groups().evaluateAll((groups) => groups.map((g) => g.getAttribute('data-category'))))).toEqual(
    new Set(['Facts']),
  );
});
