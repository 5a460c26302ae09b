import { expect, test } from '@playwright/test';
import { AppShell } from './pages/app';
import { ImportPage } from './pages/import';
import { IndexPanels } from './pages/index-panels';
import { watchConsoleErrors, zipModelFolder } from './pages/model-files';
import { RecallPage } from './pages/recall';

const SERVED = 'reranker:tiny-cross-encoder:fp32';
const PROVIDED = 'reranker:local/my-cross-encoder:fp32';

/** Turns that share some of the tiny model's vocabulary words with the prompt below, in different numbers. */
const GARDEN = [
  'User: The koi pond by the stone lantern needs clean water, and the koi need food every morning.',
  'Assistant: A bamboo bridge over the pond keeps the path dry; rake the gravel around the stone.',
  'User: I planted a maple tree and a flower bed next to the tea house.',
  'Assistant: Moss grows on the stone path in the shade of the maple.',
  'User: My budget for the trip covers travel, food and a book about music.',
  'Assistant: Read the book on the train; the city has a music school.',
].join('\n');
const PROMPT = 'koi pond water stone lantern food';

test('the tiny cross-encoder reranks in the embed worker: served by the app, then from a ZIP in the model cache, offline too', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const app = new AppShell(page);
  const importPage = new ImportPage(page);
  const panels = new IndexPanels(page);
  const recall = new RecallPage(page);
  const consoleErrors = watchConsoleErrors(page);
  const panel = page.getByTestId('reranker-panel');
  const entry = (id: string) => panel.locator(`[data-testid="reranker-entry"][data-reranker="${id}"]`);

  await importPage.open();
  await importPage.paste(GARDEN);
  await importPage.storedCounts();
  await panels.openSettings();
  await panels.waitUpToDate();

  // The list: real rerankers with their download sizes, and the test model the app serves.
  await expect(panel).toHaveAttribute('data-state', 'none');
  await expect(entry('reranker:Xenova/ms-marco-MiniLM-L-6-v2:q8')).toContainText(/22 MB download from Hugging Face/u);
  await expect(entry('reranker:Xenova/bge-reranker-base:q8')).toContainText(/278M parameters/u);
  await expect(entry(SERVED)).toContainText('served by this app');

  await entry(SERVED).getByTestId('reranker-use').click();
  await expect(panel).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(panel.getByTestId('reranker-status')).toContainText(/In use: tiny-cross-encoder \(fp32\) on wasm/u);

  // Recall: the funnel's survivors are reranked; each item shows its cross-encoder score.
  const reranked = async () => {
    await recall.open();
    await recall.input.fill(PROMPT);
    const status = page.getByTestId('rerank-status');
    // A fresh page's index worker loads the chosen reranker in the background; recall never waits for it.
    await expect(async () => {
      await recall.input.press('Enter');
      await expect(status).toHaveAttribute('data-ran', 'true', { timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await expect(recall.results.first()).toContainText('koi pond');
    await expect(recall.results.first().getByTestId('recall-result-rerank')).toContainText(/reranker [4-9]\.00/u);
    return status;
  };
  await expect(await reranked()).toContainText(`Reranker (${SERVED})`);

  // A provided ZIP goes into the model cache and loads from there.
  await panels.openSettings();
  await panel.getByTestId('reranker-zip').setInputFiles({
    name: 'my-cross-encoder.zip',
    mimeType: 'application/zip',
    buffer: zipModelFolder('static/test-models/tiny-cross-encoder', 'my-cross-encoder'),
  });
  await expect(entry(PROVIDED)).toHaveAttribute('data-cached', 'true', { timeout: 30_000 });
  await entry(PROVIDED).getByTestId('reranker-use').click();
  await expect(panel).toHaveAttribute('data-active', PROVIDED, { timeout: 60_000 });
  await expect(panel).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });

  // Offline: the shell from the service worker, the provided reranker from the model cache.
  await app.waitForServiceWorkerControl();
  await context.setOffline(true);
  await page.reload();
  await expect(panel).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(await reranked()).toContainText(`Reranker (${PROVIDED})`);

  // Delete the provided files: recall goes on without a reranker and says so.
  await context.setOffline(false);
  await panels.openSettings();
  await entry(PROVIDED).getByTestId('reranker-delete').click();
  await expect(entry(PROVIDED)).toHaveCount(0);
  await expect(panel).toHaveAttribute('data-state', 'none');
  await recall.open();
  await recall.input.fill(PROMPT);
  await recall.input.press('Enter');
  await expect(page.getByTestId('rerank-status')).toHaveAttribute('data-reason', 'no-reranker');
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  expect(consoleErrors.cspViolations()).toEqual([]);
});
