import { expect, type Locator, type Page } from '@playwright/test';
import { bookmarkletScript } from '../../src/lib/bookmarklet/href';

/** Page object for the Capture screen (/capture). */
export class CapturePage {
  constructor(readonly page: Page) {}

  async open(query = ''): Promise<void> {
    await this.page.goto(`/capture${query}`);
    await expect(this.page.getByRole('heading', { level: 1, name: 'Capture' })).toBeVisible();
  }

  /** The script the bookmarklet runs, as the page offers it for its own origin. */
  async bookmarkletScript(): Promise<string> {
    const href = await this.page.getByTestId('capture-bookmarklet').getAttribute('href');
    expect(href).toMatch(/^javascript:/);
    return bookmarkletScript(href ?? '');
  }

  get preview(): Locator {
    return this.page.getByTestId('capture-preview');
  }

  get messages(): Locator {
    return this.preview.getByTestId('capture-message');
  }

  get status(): Locator {
    return this.page.getByTestId('capture-status');
  }

  async roles(): Promise<string[]> {
    return this.messages.evaluateAll((items) => items.map((item) => item.getAttribute('data-role') ?? ''));
  }

  async paste(text: string): Promise<void> {
    await this.page.getByTestId('capture-paste').fill(text);
    await this.page.getByTestId('capture-paste-submit').click();
  }

  /** Confirms, and returns how many messages the vault reports as added. */
  async confirm(): Promise<number> {
    await this.page.getByTestId('capture-confirm').click();
    const result = this.page.getByTestId('capture-result');
    await expect(result).toBeVisible();
    return Number(await result.getAttribute('data-added'));
  }

  /** Conversations, messages and resource notes stored in the vault (IndexedDB, read directly). */
  async stored(): Promise<{ conversations: number; messages: number; resources: number }> {
    return this.page.evaluate(
      () =>
        new Promise<{ conversations: number; messages: number; resources: number }>((resolve, reject) => {
          const open = indexedDB.open('engram-vault');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('messages')) {
              db.close();
              resolve({ conversations: 0, messages: 0, resources: 0 });
              return;
            }
            const tx = db.transaction(['conversations', 'messages', 'messageBlocks', 'notes'], 'readonly');
            const conversations = tx.objectStore('conversations').count();
            // Messages are rows or entries of blocks of several (schema 11): one index entry per message.
            const messages = tx.objectStore('messages').count();
            const inBlocks = tx.objectStore('messageBlocks').index('messageIds').count();
            const resources = tx.objectStore('notes').index('tier').count('resource');
            tx.oncomplete = () => {
              resolve({ conversations: conversations.result, messages: messages.result + inBlocks.result, resources: resources.result });
              db.close();
            };
          };
        }),
    );
  }

  /** Titles of the conversations stored in the vault (IndexedDB, read directly). */
  async titles(): Promise<string[]> {
    return this.page.evaluate(
      () =>
        new Promise<string[]>((resolve, reject) => {
          const open = indexedDB.open('engram-vault');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const all = db.transaction('conversations', 'readonly').objectStore('conversations').getAll();
            all.onsuccess = () => {
              resolve((all.result as { title: string }[]).map((c) => c.title).sort());
              db.close();
            };
            all.onerror = () => reject(all.error);
          };
        }),
    );
  }
}
