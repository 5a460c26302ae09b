import { expect, type Page } from '@playwright/test';

/** Page object for the Inbox: extraction progress, candidates, keyboard actions, undo toasts. */
export class InboxPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/inbox');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  }

  items() {
    return this.page.getByTestId('inbox-item');
  }

  selected() {
    return this.page.locator('[data-testid="inbox-item"][data-selected="true"]');
  }

  /** Waits until extraction reports done and candidates are listed. */
  async waitForCandidates(): Promise<number> {
    await expect(this.page.getByTestId('extract-done')).toBeVisible({ timeout: 30_000 });
    await expect(this.items().first()).toBeVisible();
    return this.items().count();
  }

  groups() {
    return this.page.getByTestId('inbox-group');
  }

  currentGroup() {
    return this.page.locator('[data-testid="inbox-group"][data-current="true"]');
  }

  async press(key: string): Promise<void> {
    // Keys go to the page, not to a focused control.
    await this.page.locator('body').press(key);
  }
}
