import { expect, type Page } from '@playwright/test';

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Page object for the Import screen. */
export class ImportPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/import');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Import' })).toBeVisible();
  }

  async paste(text: string): Promise<void> {
    await this.page.getByTestId('import-paste').fill(text);
    await this.page.getByTestId('import-submit').click();
  }

  async upload(files: UploadFile[]): Promise<void> {
    await this.page.getByTestId('import-file').setInputFiles(files);
  }

  report() {
    return this.page.getByTestId('import-report');
  }

  /** Waits for the report and returns its two headline numbers. */
  async storedCounts(): Promise<{ conversations: number; messages: number }> {
    await expect(this.report()).toBeVisible({ timeout: 60_000 });
    return {
      conversations: Number(await this.page.getByTestId('report-conversations-stored').textContent()),
      messages: Number(await this.page.getByTestId('report-messages-stored').textContent()),
    };
  }
}
