import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { AppShell } from './app';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Builds a seed vault file with the app's own Node code path (see vault-seed.ts). */
export function buildSeedFile(out: string, variant: 'a' | 'b'): void {
  execFileSync(process.execPath, ['--import', 'tsx', 'e2e/pages/vault-seed.ts', out, variant], { cwd: root, stdio: 'pipe' });
}

export interface VaultCountsShown {
  conversations: number;
  messages: number;
  notes: number;
}

/** Page object for Settings > Vault file. */
export class VaultFilePanel {
  constructor(readonly page: Page) {}

  get panel() {
    return this.page.getByTestId('vault-file-panel');
  }

  async open(): Promise<void> {
    await new AppShell(this.page).open('/settings');
    await expect(this.page.getByTestId('vault-status')).toContainText('The vault holds');
  }

  async setPassphrase(passphrase: string): Promise<void> {
    await this.page.getByTestId('vault-passphrase').fill(passphrase);
  }

  async counts(): Promise<VaultCountsShown> {
    const read = async (name: string) => Number(await this.page.getByTestId(`vault-count-${name}`).textContent());
    return { conversations: await read('conversations'), messages: await read('messages'), notes: await read('notes') };
  }

  /** Waits until the status line shows these counts (it refreshes after each operation). */
  async expectCounts(expected: VaultCountsShown): Promise<void> {
    await expect.poll(() => this.counts(), { timeout: 15_000 }).toEqual(expected);
  }

  async chooseFile(path: string): Promise<void> {
    await this.page.getByTestId('vault-file-input').setInputFiles(path);
  }

  /** Restores a file, confirming the replacement; waits for the outcome line. */
  async restore(path: string, passphrase = ''): Promise<void> {
    await this.setPassphrase(passphrase);
    await this.chooseFile(path);
    await this.page.getByTestId('vault-import').click();
    await expect(this.page.getByTestId('vault-restore-confirm')).toContainText('You will lose what it holds now');
    await this.page.getByTestId('vault-restore-confirm-yes').click();
  }

  async merge(path: string, passphrase = ''): Promise<void> {
    await this.setPassphrase(passphrase);
    await this.chooseFile(path);
    await this.page.getByTestId('vault-merge').click();
  }

  async outcome(text: RegExp | string): Promise<void> {
    await expect(this.page.getByTestId('vault-outcome')).toContainText(text, { timeout: 30_000 });
  }

  /** Exports (encrypted when a passphrase is given) and saves the download to `path`. */
  async exportTo(path: string, passphrase?: string): Promise<void> {
    if (passphrase !== undefined) {
      await this.setPassphrase(passphrase);
      await this.page.getByTestId('vault-encrypt').check();
      await this.page.getByTestId('vault-passphrase-confirm').fill(passphrase);
      await expect(this.page.getByTestId('vault-passphrase-strength')).toBeVisible();
    } else if (await this.page.getByTestId('vault-encrypt').isChecked()) {
      await this.page.getByTestId('vault-encrypt').uncheck();
    }
    const download = this.page.waitForEvent('download', { timeout: 60_000 });
    await this.page.getByTestId('vault-export').click();
    await (await download).saveAs(path);
    await this.outcome('Exported');
  }

  async fingerprint(): Promise<string> {
    await this.page.getByTestId('vault-fingerprint-compute').click();
    const shown = this.page.getByTestId('vault-fingerprint');
    await expect(shown).toHaveText(/^[0-9a-f]{64}$/);
    return (await shown.textContent())!;
  }
}

/**
 * Test setup for the sync folder: the folder picker cannot be driven in headless Chromium, so the
 * test stands in for the person's choice by storing a folder handle where the app keeps the chosen
 * folder (the `vault.syncFolder` setting), using a folder of the origin-private file system
 * (a real FileSystemDirectoryHandle). Everything after that is the app's own code.
 */
export async function chooseOpfsSyncFolder(page: Page, fileBytes?: number[]): Promise<void> {
  await page.evaluate(async (bytes) => {
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('engram-sync', { create: true });
    if (bytes) {
      const writable = await (await folder.getFileHandle('engram-vault.engram', { create: true })).createWritable();
      await writable.write(new Uint8Array(bytes));
      await writable.close();
    }
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('engram-vault');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const tx = open.result.transaction('settings', 'readwrite');
        tx.objectStore('settings').put({ key: 'vault.syncFolder', value: folder });
        tx.oncomplete = () => {
          open.result.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
    });
  }, fileBytes);
}

/** The sync file in the origin-private folder, as bytes (empty when there is none). */
export async function readOpfsSyncFile(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('engram-sync', { create: true });
    try {
      const file = await (await folder.getFileHandle('engram-vault.engram')).getFile();
      return [...new Uint8Array(await file.arrayBuffer())];
    } catch {
      return [];
    }
  });
}
