import { expect, test } from '@playwright/test';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ImportPage } from './pages/import';
import { IndexPanels } from './pages/index-panels';
import { RecallPage } from './pages/recall';

/**
 * A local model server lent to the app (Settings, "Use this server"): the index worker's leader
 * queues the entity communities' summaries, the model writes them, and a GLOBAL prompt's community
 * item shows the model's summary and names the model. The server is a fake OpenAI-compatible one on
 * 127.0.0.1 (no model runs here): it writes a community summary of the length asked for and fails
 * every other call (extraction windows, session summaries, recall's model stages), which the app
 * leaves to its rules.
 */
const GARDEN = [
  'User: My Rachio controller waters the tomato beds through Hunter valves. Should I switch the hub to Zigbee?',
  'Assistant: The Rachio works over Wi-Fi; Hunter valves are wired at 24V. Zigbee would only matter for extra soil sensors.',
  "User: Then I'll keep the Rachio on Wi-Fi and add two Hunter valves for the new beds.",
  'Assistant: Run the Hunter valve wires back to the Rachio box; no Zigbee needed.',
].join('\n');

const CAT = [
  'User: Miso, my cat, is overweight. The vet, Dr. Patel, wants her to lose 400 grams.',
  'Assistant: Measure portions and switch Miso to wet food twice a day; Dr. Patel may suggest a weight-control formula.',
  "User: Decision: Miso gets wet food twice a day and no more dry food. I'll weigh her every Sunday for Dr. Patel.",
].join('\n');

let server: Server;
let base = '';
const asked: Record<string, number> = {};

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
  res.end(JSON.stringify(body));
}

test.beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers': 'content-type, authorization',
      });
      return res.end();
    }
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { messages: { role: string; content: string }[] };
      const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
      const community = system.includes('These names occur together');
      asked[community ? 'community' : 'other'] = (asked[community ? 'community' : 'other'] ?? 0) + 1;
      if (!community) return answer(res, 500, { error: { message: 'this fake writes community summaries only' } });
      const names = /Names: ([^\n]+)/u.exec(body.messages.at(-1)!.content)?.[1] ?? 'them';
      const summary = `Fake community summary: ${names} belong to one garden irrigation setup that the person planned and wired together.`;
      answer(res, 200, { choices: [{ message: { content: JSON.stringify({ summary }) }, finish_reason: 'stop' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('a local model server writes the entity communities summaries, shown on a GLOBAL prompt with the model named', async ({ page }) => {
  test.setTimeout(150_000);
  const importPage = new ImportPage(page);
  const panels = new IndexPanels(page);
  const recall = new RecallPage(page);
  for (const chat of [GARDEN, CAT]) {
    await importPage.open();
    await importPage.paste(chat);
    expect((await importPage.storedCounts()).conversations).toBe(1);
  }
  await expect(page.getByTestId('extract-done')).toBeVisible({ timeout: 60_000 });
  await panels.openSettings();
  await panels.waitUpToDate();

  await page.goto('/settings');
  await page.getByTestId('llm-endpoint-open').click();
  await page.getByTestId('llm-endpoint-url').fill(base);
  await page.getByLabel('Model name').fill('fake-writer');
  await page.getByLabel('I understand that conversation text goes to this URL.').check();
  await page.getByRole('button', { name: 'Use this server' }).click();
  await expect(page.getByTestId('llm-status')).toHaveAttribute('data-kind', 'openai-compatible');
  await expect.poll(() => asked.community ?? 0, { timeout: 60_000 }).toBeGreaterThan(0);

  await recall.open();
  const label = recall.structural.filter({ has: page.locator('[data-kind="community"]') }).getByTestId('recall-result-structure');
  // The job runs in the background: ask until the structural index shows what it wrote.
  const prompts = [
    'Overview of the Rachio controller, Hunter valves and Zigbee',
    'Give me an overview of the Rachio controller and Hunter valves',
  ];
  let i = 0;
  await expect
    .poll(
      async () => {
        await recall.input.fill(prompts[i++ % prompts.length]!);
        await recall.input.press('Enter');
        await page.waitForTimeout(1_000);
        return (await label.count()) > 0 ? await label.first().getAttribute('title') : null;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe('Summarised by openai-compatible:fake-writer');
  await expect(recall.structural.filter({ hasText: 'Fake community summary: Rachio' }).first()).toBeVisible();
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
});
