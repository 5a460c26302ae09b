import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ImportPage } from './pages/import';
import { InboxPage } from './pages/inbox';

// The user says the same decision twice; rule-based extraction makes a candidate of each.
const TRANSCRIPT = [
  'User: My Japanese maple stands in a small courtyard garden. When should I prune it?',
  'Assistant: Prune Japanese maples in late winter while they are dormant.',
  "User: I've decided to prune the courtyard maple in late February with sharp bypass pruners.",
  'Assistant: That works. Is the soil acidic?',
  'User: Yes. So to confirm, I decided to prune the courtyard maple in late February with sharp bypass pruners.',
  'Assistant: Good plan.',
].join('\n');

/** Serious or critical WCAG 2.1 A/AA violations on the page as it is (a11y.spec.ts's rule set). */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

const FIRST = "I've decided to prune the courtyard maple in late February with sharp bypass pruners.";
const SECOND = 'I decided to prune the courtyard maple in late February with sharp bypass pruners.';

test('curation: kept near-duplicates, Sweep now proposes a merge, apply it, then roll it back from Settings', async ({ page }) => {
  // A whole journey (import, extraction, keeps, a background sweep, apply, roll-back, two axe runs):
  // on a 2-core machine under load it ran past the default 60 s with every step answering.
  test.setTimeout(180_000);
  const importPage = new ImportPage(page);
  await importPage.open();
  await importPage.paste(TRANSCRIPT);
  expect(await importPage.storedCounts()).toEqual({ conversations: 1, messages: 6 });

  // Inbox: keep the statement and its repetition.
  const inbox = new InboxPage(page);
  await inbox.open();
  await inbox.waitForCandidates();
  // Background work paused before anything is kept: the scheduled sweep (first due a minute after the
  // worker starts) can then never run over the kept notes before 'Sweep now' below, however slow the
  // machine. Keeping goes through the vault worker, not the paused job queue.
  await page.goto('/settings');
  const jobs = page.getByTestId('jobs-panel');
  await jobs.getByRole('button', { name: 'Pause' }).click();
  await expect(jobs).toContainText('Paused.');
  await inbox.open();
  await inbox.items().filter({ hasText: FIRST }).getByTestId('inbox-keep').click();
  await expect(inbox.items().filter({ hasText: FIRST })).toHaveCount(0);
  // The repeated statement comes out as its own Decision (extractor v2 splits off "So to confirm,").
  await inbox.items().filter({ hasText: SECOND }).getByTestId('inbox-keep').click();
  await expect(inbox.items().filter({ hasText: 'courtyard maple in late February' })).toHaveCount(0);

  // Notes: both kept; the sweep has proposed nothing yet.
  await page.goto('/notes');
  const kept = page.getByTestId('note-item');
  await expect(kept).toHaveCount(2);
  const sweep = page.getByTestId('sweep-proposals');
  await expect(sweep.getByTestId('sweep-empty')).toBeVisible();

  // Pin and unpin one (the toggle says its state).
  const pin = kept.filter({ hasText: FIRST }).getByTestId('note-pin');
  await expect(pin).toHaveAttribute('aria-pressed', 'false');
  await pin.click();
  await expect(pin).toHaveAttribute('aria-pressed', 'true');
  await pin.click();
  await expect(pin).toHaveAttribute('aria-pressed', 'false');

  // Sweep now while background work is paused: the sweep shows as queued and cannot be asked for twice.
  await sweep.getByTestId('sweep-now').click();
  await expect(sweep.getByTestId('sweep-message')).toContainText('queued');
  await expect(sweep.getByTestId('sweep-running')).toHaveAttribute('data-status', 'pending');
  await expect(sweep.getByTestId('sweep-now')).toBeDisabled();
  await expect(sweep.getByTestId('sweep-proposal')).toHaveCount(0);
  // Resumed, the background job runs and proposes merging the two.
  await page.goto('/settings');
  await jobs.getByRole('button', { name: 'Resume' }).click();
  await page.goto('/notes');
  const proposal = sweep.getByTestId('sweep-proposal');
  await expect(proposal).toHaveCount(1, { timeout: 30_000 });
  await expect(proposal).toHaveAttribute('data-type', 'collapse-duplicates');
  await expect(proposal.getByTestId('sweep-reasons')).not.toBeEmpty();
  await expect(sweep.getByTestId('sweep-last')).toContainText('1 near-duplicate pair');
  await expect(sweep.getByTestId('sweep-running')).toHaveCount(0);
  await expect(sweep.getByTestId('sweep-now')).toBeEnabled();

  expect(await seriousViolations(page)).toEqual([]);

  // Apply: one of the two is archived and linked to the other.
  await proposal.getByTestId('sweep-apply').click();
  await expect(sweep.getByTestId('sweep-proposal')).toHaveCount(0);
  await expect(sweep.getByTestId('sweep-message')).toContainText('Applied');
  await expect(kept).toHaveCount(1);
  await page.getByTestId('notes-filter').selectOption('archived');
  await expect(page.getByTestId('note-item')).toHaveCount(1);
  await page.getByTestId('notes-filter').selectOption('kept');

  // Settings: the sweep's checkpoint; rolling back (after a confirmation) reports what it restored.
  await page.goto('/settings');
  const checkpoints = page.getByTestId('checkpoints');
  const sweepCheckpoint = checkpoints.locator('[data-testid="checkpoint"][data-reason="sweep"]');
  await expect(sweepCheckpoint).toHaveCount(1);
  await expect(sweepCheckpoint).toContainText('Before applying the cleaning sweep');
  // The confirmation takes focus (on Cancel), Escape closes it and focus returns to the button.
  const rollback = sweepCheckpoint.getByTestId('checkpoint-rollback');
  await rollback.click();
  await expect(sweepCheckpoint.getByTestId('checkpoint-confirm-cancel')).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(sweepCheckpoint.getByTestId('checkpoint-confirm-dialog')).toHaveCount(0);
  await expect(rollback).toBeFocused();
  await page.keyboard.press('Enter');
  await sweepCheckpoint.getByTestId('checkpoint-confirm').click();
  await expect(checkpoints.getByTestId('checkpoint-outcome')).toContainText('Rolled back to');
  await expect(sweepCheckpoint).toHaveAttribute('data-state', 'rolled-back');
  await expect(checkpoints.locator('[data-testid="checkpoint"][data-reason="rollback"]')).toHaveCount(1);
  // Retention: no purge yet in a fresh vault, and what each table holds, counted when opened.
  const retention = page.getByTestId('retention-report');
  await expect(retention.getByTestId('retention-never')).toBeVisible();
  const notesRows = retention.locator('[data-testid="retention-table"][data-table="notes"]');
  await expect(notesRows).toHaveCount(0);
  await retention.getByText('Rows per table').click();
  await expect(notesRows.locator('td')).toHaveText(/^[1-9]\d*$/u);
  await expect(retention.getByTestId('retention-tables-state')).toContainText('Counted');
  await retention.getByTestId('retention-recount').click();
  await expect(retention.getByTestId('retention-tables-state')).toContainText('Counted');
  await expect(notesRows).toBeVisible();

  // Notes: both notes kept again, and the merge is pending again.
  await page.goto('/notes');
  await expect(page.getByTestId('note-item')).toHaveCount(2);
  await expect(page.getByTestId('note-item').filter({ hasText: FIRST })).toHaveCount(1);
  await expect(page.getByTestId('note-item').filter({ hasText: SECOND })).toHaveCount(1);
  await expect(page.getByTestId('sweep-proposal')).toHaveCount(1);
});
