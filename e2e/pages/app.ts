import { expect, type Page } from '@playwright/test';
import { waitForServiceWorkerControl, type ServiceWorkerWait } from './service-worker';

/** Page object for the app shell: navigation and the screens behind it. */
export class AppShell {
  constructor(readonly page: Page) {}

  async open(path = '/'): Promise<void> {
    await this.page.goto(path);
    await expect(this.page.getByTestId('nav-recall')).toBeVisible();
  }

  nav(name: 'recall' | 'import' | 'inbox' | 'notes' | 'conversations' | 'settings') {
    return this.page.getByTestId(`nav-${name}`);
  }

  /** Waits (bounded) until the service worker controls the page, needed before going offline: see service-worker.ts. */
  async waitForServiceWorkerControl(options?: ServiceWorkerWait): Promise<void> {
    await waitForServiceWorkerControl(this.page, options);
  }
}
