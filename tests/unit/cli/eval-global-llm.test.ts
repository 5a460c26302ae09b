import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../factories/cli';

/**
 * `eval global --llm-endpoint URL` against a fake OpenAI-compatible server on 127.0.0.1 (no model
 * runs here). The fake writes session summaries and community summaries in the JSON and length their
 * prompts ask for, and fails every other call (extraction windows and recall's model stages), which
 * the app then leaves to the rules. The report says what the model wrote; a server that fails every
 * call leaves everything extractive, and the figures are the model-free run's.
 */
const FILES = [
  'train/accounting-software-agency.json',
  'train/lisbon-trip.json',
  'heldout/family-reunion.json',
  'train/japan-rail-itinerary.json',
];
const PROMPTS = {
  prompts: [
    { conversation: 'accounting-software-agency', kind: 'overview', prompt: 'Give me an overview of how we chose bookkeeping software.' },
    { conversation: 'lisbon-trip', kind: 'overview', prompt: 'Remind me of the whole Lisbon plan.' },
    { conversation: 'japan-rail-itinerary', kind: 'explore', prompt: 'Why did we plan the Japan rail trip the way we did?' },
  ],
};

let mode: 'write' | 'fail' = 'write';
const calls: Record<string, number> = {};
let server: Server;
let base = '';
let dir = '';

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const words = (n: number, from: string): string => {
  const pool = from
    .replace(/[^\p{L}\p{N} ]+/gu, ' ')
    .split(/\s+/u)
    .filter(Boolean);
  return Array.from({ length: n }, (_, i) => pool[i % pool.length] ?? 'word').join(' ');
};

/** The fake model: a summary of the length the prompt asks for, or null (the call fails). */
function write(system: string, user: string): string | null {
  const bounds = /in (\d+)-(\d+) words/iu.exec(system);
  if (!bounds) return null;
  const n = Math.max(Number(bounds[1]), 1);
  if (system.includes('Summarize the conversation session')) return JSON.stringify({ summary: words(n, user) });
  if (system.includes('These names occur together')) {
    const names = /Names: ([^\n]+)/u.exec(user)![1]!;
    return JSON.stringify({ summary: `Fake community summary: ${names}. ${words(Math.max(n, 20), user)}` });
  }
  return null;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'global-llm-'));
  for (const f of FILES) {
    await mkdir(join(dir, 'corpus', f.split('/')[0]!), { recursive: true });
    await copyFile(`tests/fixtures/extraction/${f}`, join(dir, 'corpus', f));
  }
  await writeFile(join(dir, 'prompts.json'), JSON.stringify(PROMPTS));
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { messages: { role: string; content: string }[] };
      const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
      const kind = system.includes('Summarize the conversation session')
        ? 'session'
        : system.includes('These names occur together')
          ? 'community'
          : 'other';
      calls[kind] = (calls[kind] ?? 0) + 1;
      const text = mode === 'write' ? write(system, body.messages.at(-1)!.content) : null;
      if (text === null) return answer(res, 500, { error: { message: 'not this stage' } });
      answer(res, 200, { choices: [{ message: { content: text }, finish_reason: 'stop' }] });
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
  for (const k of Object.keys(calls)) delete calls[k];
});

interface Report {
  conversations: number;
  units: Record<string, number>;
  on: { targetInPackage: number; conversationPrecision: number };
  model?: {
    id: string;
    sessionSummaries: { llm: number; extractive: number };
    communitySummaries: {
      communities: number;
      written: number;
      failed: number;
      failures: Record<string, number>;
      stopped: string | null;
    } | null;
  };
}

const args = () => ['eval', 'global', '--corpus', join(dir, 'corpus'), '--prompts', join(dir, 'prompts.json'), '--json'];

describe('engram eval global --llm-endpoint (fake server on 127.0.0.1)', () => {
  it('the model writes the session and community summaries, and the report says so', async () => {
    mode = 'write';
    const { code, out, err } = await runCli([...args(), '--llm-endpoint', base, '--model', 'fake-writer']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out) as Report;
    expect(report.units.community).toBeGreaterThan(0);
    expect(report.model).toMatchObject({ id: 'openai-compatible:fake-writer', sessionSummaries: { llm: FILES.length, extractive: 0 } });
    expect(report.model!.communitySummaries).toMatchObject({
      communities: report.units.community,
      written: report.units.community,
      failed: 0,
    });
    expect(calls.session).toBe(FILES.length);
    expect(calls.community).toBe(report.units.community);
    // Extraction windows and recall's model stages were asked, failed, and fell back to the rules.
    expect(calls.other).toBeGreaterThan(0);
  }, 60_000);

  it('a server that fails every call leaves every summary extractive, with the figures of the model-free run', async () => {
    mode = 'fail';
    const failed = JSON.parse((await runCli([...args(), '--llm-endpoint', base])).out) as Report;
    const plain = JSON.parse((await runCli(args())).out) as Report;
    expect(failed.model!.sessionSummaries).toEqual({ llm: 0, extractive: FILES.length });
    expect(failed.model!.communitySummaries).toMatchObject({
      written: 0,
      failed: failed.units.community,
      failures: { 'llm/failed': failed.units.community },
    });
    expect(plain.model).toBeUndefined();
    expect(failed.on).toEqual(plain.on);
  }, 60_000);

  it('refuses --model without an endpoint', async () => {
    expect((await runCli(['eval', 'global', '--model', 'x'])).err).toMatch(/--model needs --llm-endpoint/u);
  });
});
