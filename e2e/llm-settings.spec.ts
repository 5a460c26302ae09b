import { expect, test } from '@playwright/test';

test('without WebGPU, Settings says WebLLM is unavailable and the rule-based fallback runs; no model is offered', async ({ page }) => {
  await page.goto('/settings');
  const status = page.getByTestId('llm-status');
  await expect(status).toContainText('WebLLM is unavailable on this device');
  await expect(status).toContainText('rule-based extractor');
  await expect(status).toHaveAttribute('data-kind', 'none');
  await expect(page.getByTestId('llm-no-webgpu')).toBeVisible();
  await expect(page.getByTestId('llm-model')).toHaveCount(0);
  await page.getByText(/models not offered on this device/).click();
  await expect(page.getByTestId('llm-excluded').locator('li').first()).toContainText('needs WebGPU');
});

test('the local endpoint is off by default, warns that text goes to its URL, and accepts only this machine', async ({ page }) => {
  await page.goto('/settings');
  await expect(page.getByTestId('llm-endpoint-warning')).toHaveCount(0);
  await page.getByTestId('llm-endpoint-open').click();
  await expect(page.getByTestId('llm-endpoint-warning')).toContainText('sent to this URL');
  await page.getByTestId('llm-endpoint-url').fill('https://api.example.com');
  await page.getByLabel('Model name').fill('qwen');
  await page.getByLabel('I understand that conversation text goes to this URL.').check();
  await page.getByRole('button', { name: 'Use this server' }).click();
  await expect(page.getByTestId('llm-error')).toContainText('Only a server on this machine');
  await expect(page.getByTestId('llm-status')).toHaveAttribute('data-kind', 'none');

  await page.getByTestId('llm-endpoint-url').fill('http://127.0.0.1:9');
  await page.getByRole('button', { name: 'Use this server' }).click();
  await expect(page.getByTestId('llm-status')).toHaveAttribute('data-kind', 'openai-compatible');
  await expect(page.getByTestId('llm-status')).toContainText('sent to that server');
  await page.getByTestId('llm-off').click();
  await expect(page.getByTestId('llm-status')).toHaveAttribute('data-kind', 'none');
});
