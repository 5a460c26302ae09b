import { expect, test } from '@playwright/test';
import { chatgptExport } from '../tests/factories/import-generator';
import { ImportPage } from './pages/import';
import { IndexPanels } from './pages/index-panels';
import { zipModelFolder } from './pages/model-files';

/** About 3,000 chat turns: indexing them takes a few seconds, long enough to reload mid-way. */
function generatedExport(): Buffer {
  const { chunks } = chatgptExport({ conversations: 300, targetBytes: 1_500_000, seed: 7 });
  return Buffer.concat([...chunks]);
}

test('after an import, indexing shows progress, survives a reload mid-way, finishes, and the index is healthy', async ({ page }) => {
  test.setTimeout(180_000);
  const importPage = new ImportPage(page);
  const panels = new IndexPanels(page);
  await importPage.open();
  await importPage.upload([{ name: 'conversations.json', mimeType: 'application/json', buffer: generatedExport() }]);
  expect((await importPage.storedCounts()).conversations).toBe(300);

  // Progress right after the import, on the Import screen.
  await expect(panels.progress).toBeVisible();
  const first = await panels.waitForEmbedding(1);
  expect(first.total).toBeGreaterThan(2_000);
  await expect(panels.progress).toContainText(/left/u);

  // Reload mid-way: the embedding job is reclaimed from the closed page and resumes where it stopped.
  await page.reload();
  await panels.openSettings();
  const resumed = await panels.waitForEmbedding(1);
  expect(resumed.done).toBeGreaterThanOrEqual(first.done);
  await panels.waitUpToDate();

  await expect(panels.health.getByTestId('health-vectors')).toContainText(/^([\d,]+) of \1 documents · lexical-v1-384/u);
  expect(await panels.recall()).toBeGreaterThanOrEqual(0.95);
  await expect(panels.health.getByTestId('health-coverage')).toContainText('lexical fallback');
  await expect(panels.embedder.getByTestId('embedder-serving')).toContainText('lexical fallback');
});

test('pause stops indexing where it is and resume finishes it', async ({ page }) => {
  test.setTimeout(180_000);
  const importPage = new ImportPage(page);
  const panels = new IndexPanels(page);
  await importPage.open();
  await importPage.upload([{ name: 'conversations.json', mimeType: 'application/json', buffer: generatedExport() }]);
  await importPage.storedCounts();
  await panels.waitForEmbedding(1);
  await panels.progress.getByTestId('index-pause').click();
  await expect(panels.progress).toHaveAttribute('data-state', 'paused');
  const resume = panels.progress.getByTestId('index-resume');
  await expect(resume).toBeVisible();
  // Paused survives a reload (it is a setting), and nothing advances meanwhile.
  await page.reload();
  await panels.openSettings();
  await expect(panels.progress).toHaveAttribute('data-state', 'paused');
  const vectorsText = await panels.health.getByTestId('health-vectors').textContent();
  await page.waitForTimeout(1_500);
  await expect(panels.health.getByTestId('health-vectors')).toHaveText(vectorsText ?? '');
  await panels.progress.getByTestId('index-resume').click();
  await panels.waitUpToDate();
  await expect(panels.health.getByTestId('health-vectors')).toContainText(/^([\d,]+) of \1 documents/u);
});

test('a model folder provided as a ZIP is stored in the model cache, serves, and can be deleted', async ({ page }) => {
  test.setTimeout(120_000);
  const importPage = new ImportPage(page);
  const panels = new IndexPanels(page);
  await importPage.open();
  await importPage.paste('User: Which gravel suits a dry garden?\nAssistant: Crushed granite, raked in lines.');
  await importPage.storedCounts();
  await panels.openSettings();
  await panels.waitUpToDate();

  await panels.embedder
    .getByTestId('model-zip')
    .setInputFiles([
      { name: 'tiny-bert.zip', mimeType: 'application/zip', buffer: zipModelFolder('static/test-models/tiny-bert', 'tiny-bert') },
    ]);
  const provided = panels.model('transformers:local/tiny-bert:fp32');
  await expect(provided).toHaveAttribute('data-cached', 'true', { timeout: 30_000 });
  await expect(provided).toContainText(/cached, \d+(\.\d)? KB in 4 files/u);
  await provided.getByTestId('model-use').click();
  await panels.waitServing('transformers:local/tiny-bert:fp32');
  await expect(panels.embedder.getByTestId('embedder-serving')).toContainText(/on wasm/u);

  await provided.getByTestId('model-delete').click();
  await panels.waitServing('lexical-v1-384');
  await expect(panels.model('transformers:local/tiny-bert:fp32')).toHaveCount(0);
});

test('a model folder picked with the folder input is stored and serves', async ({ page }) => {
  const importPage = new ImportPage(page);
  const panels = new IndexPanels(page);
  await importPage.open();
  await importPage.paste('User: Which moss likes shade?\nAssistant: Cushion moss, in damp shade.');
  await importPage.storedCounts();
  await panels.openSettings();
  await panels.waitUpToDate();
  await panels.embedder.getByTestId('model-folder').setInputFiles('static/test-models/tiny-bert');
  const provided = panels.model('transformers:local/tiny-bert:fp32');
  await expect(provided).toHaveAttribute('data-cached', 'true', { timeout: 30_000 });
  await provided.getByTestId('model-use').click();
  await panels.waitServing('transformers:local/tiny-bert:fp32');
  await expect(panels.health.getByTestId('health-coverage')).toContainText(/([\d,]+) of \1 documents \(100\s?%\)/u);
});
