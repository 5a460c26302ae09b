import { expect, test } from '@playwright/test';
import { ImportPage } from './pages/import';
import { InboxPage } from './pages/inbox';

/*
 * A kept engram outranks the transcript chunk it came from in Recall (provenance 1.0 against 0.6).
 * Needs the Recall screen (testids recall-input, recall-result), built on another branch: this
 * spec passes once both branches are merged.
 */
const TRANSCRIPT = [
  'User: My Japanese maple stands in a small courtyard garden. When should I prune it?',
  'Assistant: Prune Japanese maples in late winter while they are dormant. Never remove more than a quarter of the canopy in one year.',
  "User: I've decided to prune the maple in late February. I need to buy sharp bypass pruners first.",
  'Assistant: Is the soil acidic? Moss prefers acidic, shaded soil.',
].join('\n');
const ENGRAM = "I've decided to prune the maple in late February.";

test('a kept engram outranks the transcript chunk it came from in Recall', async ({ page }) => {
  const importPage = new ImportPage(page);
  await importPage.open();
  await importPage.paste(TRANSCRIPT);
  await importPage.storedCounts();

  const inbox = new InboxPage(page);
  await inbox.open();
  await inbox.waitForCandidates();
  const item = inbox.items().filter({ hasText: ENGRAM });
  await item.getByTestId('inbox-keep').click();
  await expect(inbox.items().filter({ hasText: ENGRAM })).toHaveCount(0);

  await page.goto('/');
  const input = page.getByTestId('recall-input');
  await expect(input).toBeVisible();
  // The kept note is indexed by a background job: ask again until the index has it.
  await expect(async () => {
    await input.fill('');
    await input.fill('When do I prune the maple in late February?');
    await input.press('Enter');
    await expect(page.getByTestId('recall-result').first()).toContainText(ENGRAM, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });

  // Pin the note itself from its Recall item (issue 17): a chunk has no such control.
  const engram = page.getByTestId('recall-result').filter({ hasText: ENGRAM }).and(page.locator('[data-note-pinned]'));
  await expect(engram).toHaveAttribute('data-note-pinned', 'false');
  await expect(page.locator('[data-testid="recall-result"]:not([data-note-pinned]) [data-testid="recall-item-pin-note"]')).toHaveCount(0);
  await engram.getByTestId('recall-item-pin-note').click();
  await expect(engram).toHaveAttribute('data-note-pinned', 'true');
  await expect(engram.getByTestId('recall-item-note-pinned')).toBeVisible();
  await expect(engram.getByTestId('recall-item-pin-note')).toHaveAttribute('aria-pressed', 'true');
  // Kept in the vault, not the session: Notes shows it pinned.
  await page.goto('/notes');
  const note = page.getByTestId('note-item').filter({ hasText: ENGRAM });
  await expect(note.getByTestId('note-pin')).toHaveAttribute('aria-pressed', 'true');
});
