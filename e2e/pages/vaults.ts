import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the vault switcher (the shell) and its picker. */
export class VaultSwitcher {
  constructor(readonly page: Page) {}

  get name(): Locator {
    return this.page.getByTestId('vault-name');
  }

  get picker(): Locator {
    return this.page.getByTestId('vault-picker');
  }

  option(name: string): Locator {
    return this.picker.locator(`[data-testid="vault-option"][data-vault-name="${name}"]`);
  }

  /** The picker's row of a vault (its option, rename and delete). */
  row(name: string): Locator {
    return this.picker.locator('li').filter({ has: this.page.locator(`[data-testid="vault-option"][data-vault-name="${name}"]`) });
  }

  /** Opens the picker with the keyboard shortcut (Alt+Shift+V). */
  async openWithShortcut(): Promise<void> {
    await this.page.keyboard.press('Alt+Shift+KeyV');
    await expect(this.picker).toBeVisible();
  }

  async openPicker(): Promise<void> {
    await this.page.getByTestId('vault-switch').click();
    await expect(this.picker).toBeVisible();
  }

  async create(name: string): Promise<void> {
    if (!(await this.picker.isVisible())) await this.openPicker();
    await this.page.getByTestId('vault-new-name').fill(name);
    await this.page.getByTestId('vault-create').click();
    await expect(this.option(name)).toBeVisible();
  }

  /** Switches this tab to `name` (the page reloads with it). */
  async switchTo(name: string): Promise<void> {
    if (!(await this.picker.isVisible())) await this.openPicker();
    await this.option(name).click();
    await expect(this.name).toHaveText(name, { timeout: 30_000 });
    await expect(this.picker).toHaveCount(0);
  }
}
