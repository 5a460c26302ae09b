import { expect, type Page } from '@playwright/test';

/** Page object for the app shell: navigation and the screens behind it. */
export class AppShell {
  constructor(readonly page: Page) {}

  async open(path = '/'): Promise<void> {
    await this.page.goto(path);
    await expect(this.page.getByTestId('nav-recall')).toBeVisible();
  }

  nav(name: 'recall' | 'import' | 'inbox' | 'notes' | 'settings') {
    return this.page.getByTestId(`nav-${name}`);
  }

  /** Waits until the service worker controls the page (needed before going offline). */
  async waitForServiceWorkerControl(): Promise<void> {
    await this.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (navigator.serviceWorker.controller) return;
      await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
    });
  }
}
