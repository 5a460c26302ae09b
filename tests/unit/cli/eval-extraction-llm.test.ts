import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { kindForCategory } from '../../../src/lib/core/extract/category-match';
import type { LabelledConversation } from '../../../src/lib/core/extract/labelled-corpus';
import { runCli } from '../../factories/cli';

/**
 * `eval extraction --labelled DIR --llm-endpoint URL` against a fake OpenAI-compatible server on
 * 127.0.0.1 (no model runs here). The fake answers each extraction window with the corpus's own
 * labels for the messages it is shown, so a faithful path scores (nearly) perfectly; a failing
 * server leaves every window to the rules, and the report says so.
 */
const FILES = ['train/lisbon-trip.json', 'train/cat-diet.json', 'heldout/tokyo-trip.json'];
const conversations = FILES.map((f) => JSON.parse(readFileSync(`tests/fixtures/extraction/${f}`, 'utf8')) as LabelledConversation);
const turns = conversations.flatMap((c) => c.turns);

let mode: 'gold' | 'fail' = 'gold';
let calls = 0;
let server: Server;
let base = '';
let dir = '';

/** The gold units of the messages in one prompt, cited by the prompt's labels. */
function goldAnswer(prompt: string): string {
  const units: unknown[] = [];
  // The prompt gives one message per line as JSON (core/extract/prompt.ts renderMessage).
  for (const line of prompt.split('\n')) {
    if (!line.startsWith('{"label":')) continue;
    const m = JSON.parse(line) as { label: string; context?: boolean; text: string };
    if (m.context) continue;
    const turn = turns.find((t) => t.text === m.text || t.text.startsWith(m.text));
    for (const u of turn?.units ?? [])
      units.push({ kind: kindForCategory(u.category), category: u.category, text: u.text, sources: [m.label] });
  }
  return JSON.stringify({ units });
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'labelled-llm-'));
  for (const f of FILES) {
    await mkdir(join(dir, f.split('/')[0]!), { recursive: true });
    await copyFile(`tests/fixtures/extraction/${f}`, join(dir, f));
  }
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      calls += 1;
      if (mode === 'fail') return answer(res, 500, { error: { message: 'model crashed' } });
      const body = JSON.parse(raw) as { messages: { content: string }[] };
      answer(res, 200, { choices: [{ message: { content: goldAnswer(body.messages.at(-1)!.content) }, finish_reason: 'stop' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  calls = 0;
});

interface Report {
  extractor: string;
  macroF1: number;
  goldUnits: number;
  predictedUnits: number;
  byCategory: Record<string, { precision: number; recall: number }>;
  splits: Record<string, { macroF1: number }>;
  llm?: { id: string; windows: number; llmWindows: number; fallbackWindows: number; fallbackReasons: Record<string, number> };
}

describe('engram eval extraction --llm-endpoint (fake server on 127.0.0.1)', () => {
  it('sends every window to the model and scores its units with the same report', async () => {
    mode = 'gold';
    const { code, out, err } = await runCli([
      'eval',
      'extraction',
      '--labelled',
      dir,
      '--llm-endpoint',
      base,
      '--model',
      'fake-gold',
      '--json',
    ]);
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out) as Report;
    expect(report.extractor).toBe('llm:openai-compatible:fake-gold');
    expect(report.llm).toMatchObject({ id: 'openai-compatible:fake-gold', fallbackWindows: 0 });
    expect(report.llm!.llmWindows).toBe(report.llm!.windows);
    expect(calls).toBe(report.llm!.windows);
    expect(Object.keys(report.splits).sort()).toEqual(['heldout', 'train']);
    // The labels themselves, through the validator: what the corpus says, not what the rules find.
    expect(report.macroF1).toBeGreaterThanOrEqual(0.97);
    expect(report.byCategory.Decisions!.recall).toBe(1);
    expect(report.byCategory.Decisions!.precision).toBe(1);
  });

  it('says the rules took every window when the server fails, and then scores the rules', async () => {
    mode = 'fail';
    const viaLlm = await runCli(['eval', 'extraction', '--labelled', dir, '--llm-endpoint', base, '--json']);
    const rules = await runCli(['eval', 'extraction', '--labelled', dir, '--json']);
    const failed = JSON.parse(viaLlm.out) as Report;
    const plain = JSON.parse(rules.out) as Report;
    expect(calls).toBeGreaterThan(0);
    expect(failed.llm!.llmWindows).toBe(0);
    expect(failed.llm!.fallbackWindows).toBe(failed.llm!.windows);
    expect(Object.keys(failed.llm!.fallbackReasons).length).toBeGreaterThan(0);
    expect(failed.macroF1).toBe(plain.macroF1);
    expect(plain.llm).toBeUndefined();
    expect(failed.macroF1).toBeLessThan(0.97);
  });

  it('refuses --model without an endpoint, and an endpoint without --labelled', async () => {
    expect((await runCli(['eval', 'extraction', '--labelled', dir, '--model', 'x'])).err).toMatch(/--model needs --llm-endpoint/);
    expect((await runCli(['eval', 'extraction', 'x.json', '--llm-endpoint', base])).err).toMatch(/add --labelled DIR/);
  });
});
