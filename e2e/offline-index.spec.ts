import { expect, test } from '@playwright/test';
import { AppShell } from './pages/app';
import { ImportPage } from './pages/import';
import { IndexPanels } from './pages/index-panels';
import { watchConsoleErrors } from './pages/model-files';

const TINY = 'transformers:tiny-bert:fp32';
const MOSS = [
  'User: What soil does moss need in a Japanese garden?',
  'Assistant: Moss prefers shade, constant moisture and slightly acidic, compacted soil.',
  'User: And how often should I water it?',
  'Assistant: Mist it daily in dry weather, never flood it.',
].join('\n');
const MAPLE = 'User: How should I prune a Japanese maple?\nAssistant: Prune in late winter, and only lightly.\nUser: Thanks, and the moss?';

test('the lexical fallback serves first; the tiny model loads from the app through transformers.js; all of it works offline', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const app = new AppShell(page);
  const importPage = new ImportPage(page);
  const panels = new IndexPanels(page);
  const consoleErrors = watchConsoleErrors(page);

  await panels.openSettings();
  await expect(panels.embedder).toHaveAttribute('data-kind', 'lexical');
  await expect(panels.embedder.getByTestId('embedder-serving')).toContainText('Serving: the lexical fallback.');
  await importPage.open();
  await importPage.paste(MOSS);
  await importPage.storedCounts();
  await panels.openSettings();
  await panels.waitUpToDate();

  // The generated test model, served by the app (static/test-models), through the real embedder.
  const tiny = panels.model(TINY);
  await expect(tiny).toContainText('served by this app');
  await tiny.getByTestId('model-use').click();
  await panels.waitServing(TINY);
  await expect(panels.embedder).toHaveAttribute('data-kind', 'neural');
  await expect(panels.embedder.getByTestId('embedder-serving')).toContainText(/tiny-bert \(fp32, 32 dimensions\) on wasm/u);
  await expect(panels.health.getByTestId('health-coverage')).toContainText(/([\d,]+) of \1 documents \(100\s?%\)/u);
  expect(await panels.recall()).toBeGreaterThanOrEqual(0.95);
  await expect(panels.model(TINY)).toHaveAttribute('data-cached', 'true');

  // Offline: the shell from the service worker, the model from transformers.js's cache, ONNX
  // Runtime's WASM from the service worker's cache; new content is embedded with the tiny model.
  await app.waitForServiceWorkerControl();
  await context.setOffline(true);
  await page.reload();
  await expect(panels.embedder.getByTestId('embedder-serving')).toContainText(/on wasm/u, { timeout: 60_000 });
  await importPage.open();
  await importPage.paste(MAPLE);
  expect((await importPage.storedCounts()).conversations).toBe(1);
  await panels.openSettings();
  await panels.waitUpToDate();
  await expect(panels.health.getByTestId('health-vectors')).toContainText(new RegExp(`^([\\d,]+) of \\1 documents · ${TINY}`, 'u'));
  await panels.health.getByTestId('health-check').click();
  await expect(panels.health.getByTestId('health-check')).toHaveText('Check now');
  expect(await panels.recall()).toBeGreaterThanOrEqual(0.95);
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await context.setOffline(false);
  expect(consoleErrors.cspViolations()).toEqual([]);
});
