import { expect, test } from '@playwright/test';
import { ImportPage } from './pages/import';
import { InboxPage } from './pages/inbox';

const TRANSCRIPT = [
  'User: My Japanese maple stands in a small courtyard garden. When should I prune it?',
  'Assistant: Prune Japanese maples in late winter while they are dormant. Never remove more than a quarter of the canopy in one year.',
  "User: I've decided to prune the maple in late February. I need to buy sharp bypass pruners first.",
  'Assistant: Is the soil acidic? Moss prefers acidic, shaded soil.',
].join('\n');

test('import a transcript: rule-based extraction runs with progress, candidates are kept, edited and discarded with the keyboard', async ({
  page,
}) => {
  const importPage = new ImportPage(page);
  await importPage.open();
  await importPage.paste(TRANSCRIPT);
  expect(await importPage.storedCounts()).toEqual({ conversations: 1, messages: 4 });
  // Extraction is queued by the import and its progress shows on the Import screen too.
  await expect(page.getByTestId('extract-progress')).toBeVisible({ timeout: 30_000 });

  const inbox = new InboxPage(page);
  await inbox.open();
  await expect(page.getByTestId('extract-progress')).toBeVisible({ timeout: 30_000 });
  const total = await inbox.waitForCandidates();
  expect(total).toBe(7);
  await expect(page.getByTestId('extract-extractor')).toContainText('rule-based');
  // The decision is credited to the user's message.
  const decision = inbox.items().filter({ hasText: 'decided to prune the maple' });
  await expect(decision.getByTestId('inbox-source')).toHaveAttribute('data-role', 'user');

  // j moves, a keeps, d discards, e edits (Enter saves and keeps).
  await expect(inbox.selected()).toHaveCount(1);
  const first = (await inbox.selected().getByTestId('inbox-text').textContent())!;
  await inbox.press('j');
  const second = (await inbox.selected().getByTestId('inbox-text').textContent())!;
  expect(second).not.toBe(first);
  await inbox.press('k');
  await expect(inbox.selected().getByTestId('inbox-text')).toHaveText(first);
  await inbox.press('a');
  await expect(inbox.items()).toHaveCount(total - 1);
  await expect(page.getByTestId('undo-toast').last()).toContainText('Kept');

  const toDiscard = (await inbox.selected().getByTestId('inbox-text').textContent())!;
  await inbox.press('d');
  await expect(inbox.items()).toHaveCount(total - 2);
  await expect(inbox.items().filter({ hasText: toDiscard })).toHaveCount(0);

  // Undo the discard from its toast: the candidate is back.
  await page.getByTestId('undo-toast').last().getByTestId('undo-toast-undo').click();
  await expect(inbox.items()).toHaveCount(total - 1);
  await expect(inbox.items().filter({ hasText: toDiscard })).toHaveCount(1);

  await inbox.press('e');
  const editor = page.getByTestId('inbox-edit-text');
  await expect(editor).toBeFocused();
  await editor.fill('Prune the courtyard maple in late February.');
  await editor.press('Enter');
  await expect(inbox.items()).toHaveCount(total - 2);

  // Notes: the edited engram's history, and undo restores the candidate exactly as it was.
  await page.goto('/notes');
  await expect(page.getByTestId('note-item')).toHaveCount(2);
  const edited = page.getByTestId('note-item').filter({ hasText: 'Prune the courtyard maple in late February.' });
  await expect(edited).toHaveCount(1);
  await edited.getByTestId('note-show-history').click();
  const history = edited.getByTestId('note-history');
  // The candidate edited was the one discarded and brought back: newest first.
  await expect(history.getByTestId('note-history-entry')).toHaveCount(4);
  const actions = await history.getByTestId('note-history-entry').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
  expect(actions).toEqual(['edit-and-keep', 'undo', 'discard', 'extract']);
  expect(toDiscard).not.toBe('Prune the courtyard maple in late February.');
  await history.getByTestId('note-undo').first().click();
  await expect(page.getByTestId('note-item')).toHaveCount(1);

  await inbox.open();
  await expect(inbox.items()).toHaveCount(total - 1);
  await expect(inbox.items().filter({ hasText: 'Prune the courtyard maple in late February.' })).toHaveCount(0);
  await expect(inbox.items().filter({ hasText: toDiscard })).toHaveCount(1);
});

test('a conversation shows its session summary and the thread across sessions on the same subject', async ({ page }) => {
  const importPage = new ImportPage(page);
  await importPage.open();
  await importPage.paste(TRANSCRIPT);
  await importPage.storedCounts();
  await importPage.open();
  await importPage.paste(
    [
      'User: Maple pruning plan, take two. My Japanese maple in the courtyard garden still needs pruning.',
      'Assistant: Late winter is still the right season for a Japanese maple, while it is dormant.',
      "User: I've decided to prune the maple in early March. I bought sharp bypass pruners.",
    ].join('\n'),
  );
  await importPage.storedCounts();
  const inbox = new InboxPage(page);
  await inbox.open();
  await inbox.waitForCandidates();
  await expect(page.getByTestId('extract-progress')).toContainText(/Done/u, { timeout: 60_000 });

  await page.goto('/conversations');
  await page.getByRole('link', { name: /take two/u }).click();
  await expect(page.getByTestId('conversation-summary')).toBeVisible({ timeout: 30_000 });
  const thread = page.getByTestId('thread-map');
  await expect(thread).toContainText('The thread across 2 sessions');
  await expect(thread.locator('li[data-stage="decided"]').filter({ hasText: 'early March' })).toHaveCount(1);
  await expect(thread.locator('li[data-stage="changed"]')).toContainText('was: ');
});
