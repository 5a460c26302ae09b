import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the index panels: progress (Import and Settings), health and the embedder (Settings). */
export class IndexPanels {
  constructor(readonly page: Page) {}

  async openSettings(): Promise<void> {
    await this.page.goto('/settings');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  }

  get progress(): Locator {
    return this.page.getByTestId('index-progress');
  }

  get health(): Locator {
    return this.page.getByTestId('health-panel');
  }

  get embedder(): Locator {
    return this.page.getByTestId('embedder-status');
  }

  /** done / total of the running index job, or null when none runs. */
  async runningCount(): Promise<{ done: number; total: number } | null> {
    const count = this.progress.getByTestId('index-progress-count');
    if ((await count.count()) === 0) return null;
    // Numbers are shown in the page's locale (en-US here: "1,234").
    const match = /([\d,]+) of ([\d,]+)/u.exec((await count.textContent()) ?? '');
    const n = (s: string) => Number(s.replaceAll(',', ''));
    return match ? { done: n(match[1]!), total: n(match[2]!) } : null;
  }

  /** Waits until embedding runs and has done at least `min` documents. */
  async waitForEmbedding(min = 1, timeout = 60_000): Promise<{ done: number; total: number }> {
    let seen: { done: number; total: number } | null = null;
    await expect
      .poll(
        async () => {
          const text = (await this.progress.textContent()) ?? '';
          seen = text.includes('Embedding') ? await this.runningCount() : null;
          return seen ? seen.done : -1;
        },
        { timeout, intervals: [100] },
      )
      .toBeGreaterThanOrEqual(min);
    return seen!;
  }

  async waitUpToDate(timeout = 90_000): Promise<void> {
    await expect(this.progress.getByTestId('index-up-to-date')).toBeVisible({ timeout });
  }

  async recall(): Promise<number> {
    const cell = this.health.getByTestId('health-recall');
    await expect(cell).not.toHaveAttribute('data-recall', '', { timeout: 30_000 });
    return Number(await cell.getAttribute('data-recall'));
  }

  model(embedderId: string): Locator {
    return this.embedder.locator(`[data-testid="model-entry"][data-embedder="${embedderId}"]`);
  }

  async waitServing(embedderId: string, timeout = 60_000): Promise<void> {
    await expect(this.embedder).toHaveAttribute('data-serving', embedderId, { timeout });
  }
}
