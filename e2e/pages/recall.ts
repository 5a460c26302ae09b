import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the Recall screen (the home page). */
export class RecallPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Recall' })).toBeVisible();
  }

  get input(): Locator {
    return this.page.getByTestId('recall-input');
  }
  get results(): Locator {
    return this.page.getByTestId('recall-result');
  }
  /** The results that are memories (chunks and notes), not structural units (summaries, thread maps, communities). */
  get memories(): Locator {
    return this.page.locator('[data-testid="recall-result"]:not([data-kind="structure"])');
  }
  get structural(): Locator {
    return this.page.locator('[data-testid="recall-result"][data-kind="structure"]');
  }
  get dropped(): Locator {
    return this.page.getByTestId('recall-dropped');
  }
  get package(): Locator {
    return this.page.getByTestId('recall-package');
  }
  get copyButton(): Locator {
    return this.page.getByTestId('recall-copy');
  }
  get gate(): Locator {
    return this.page.getByTestId('gate-status');
  }

  /** The package text exactly as the page holds it (what Copy must put on the clipboard). */
  async packageText(): Promise<string> {
    return this.package.evaluate((el) => el.textContent ?? '');
  }

  async clipboard(): Promise<string> {
    return this.page.evaluate(() => navigator.clipboard.readText());
  }
}
