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
