/**
 * A local fake OpenAI-compatible server on 127.0.0.1 (node:http) for the model stages' tests and
 * the prefetch replay: `POST /v1/chat/completions` answered from LoCoMo's evidence, with scripted,
 * seeded noise and an optional delay per stage, or HTTP 500 on every call. It reads the stage from
 * the system prompt (intent, decomposition, fit-gate) and answers in the JSON each stage's schema
 * asks for, as a small local model serving `response_format: json_schema` would.
 *
 * - intent: `Recall what the conversation says about: <prompt>` (so the gate can find the question);
 * - decomposition: the prompt, its content words, its capitalized words (+ noise: a stray variant);
 * - fit-gate: keep a memory when it holds one of the question's evidence turns (category 5: none),
 *   each verdict flipped with probability `noise`.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sampleToConversations, normalizeEvidenceIds, type LocomoSample } from '../../src/lib/core/recall/locomo-data';
import { seededRng } from './rng';

export type FakeStage = 'intent' | 'decompose' | 'gate' | 'other';

export interface FakeServerOptions {
  samples: readonly LocomoSample[];
  /** Probability that a gate verdict is flipped, a decomposition gets a stray variant (default 0). */
  noise?: number;
  seed?: number;
  /** Milliseconds before each answer, per stage (a realistic small local model: hundreds of ms to seconds). */
  delayMs?: Partial<Record<FakeStage, number>>;
  /** Every call fails with HTTP 500. */
  fail?: boolean;
}

export interface FakeServer {
  url: string;
  calls: { stage: FakeStage; status: number }[];
  close(): Promise<void>;
}

const norm = (text: string) =>
  text
    .toLowerCase()
    .replace(/&amp;/gu, '&')
    .replace(/&lt;/gu, '<')
    .replace(/&gt;/gu, '>')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const STOP = new Set(
  'a an the of to in on at for with about from by is are was were be do does did what when where who which how why i you he she it we they'.split(
    ' ',
  ),
);

function stageOf(system: string): FakeStage {
  if (system.includes('relevance gate')) return 'gate';
  if (system.includes('search queries')) return 'decompose';
  if (system.includes('State the intent')) return 'intent';
  return 'other';
}

/** Question (normalized) -> the normalized texts of its evidence turns ([] for category 5). */
function evidenceIndex(samples: readonly LocomoSample[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const sample of samples) {
    const turns = new Map(sampleToConversations(sample).flatMap((c) => c.messages.map((m) => [m.diaId, norm(m.text)] as const)));
    for (const qa of sample.qa) {
      const ids = qa.category === 5 ? [] : normalizeEvidenceIds(qa.evidence).ids;
      out.set(
        norm(qa.question),
        ids.flatMap((id) => turns.get(id) ?? []).filter((t) => t.length > 0),
      );
    }
  }
  return out;
}

const INTENT_PREFIX = 'Recall what the conversation says about: ';

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeOpenAi(options: FakeServerOptions): Promise<FakeServer> {
  const evidence = evidenceIndex(options.samples);
  const rng = seededRng(options.seed ?? 7);
  const noise = options.noise ?? 0;
  const calls: FakeServer['calls'] = [];

  const answer = (stage: FakeStage, user: string): unknown => {
    if (stage === 'intent') {
      const prompt = user.replace(/^Request:\n/u, '').trim();
      return { intent: `${INTENT_PREFIX}${prompt}`.slice(0, 300) };
    }
    if (stage === 'decompose') {
      const prompt = user.replace(/^Request:\n/u, '').trim();
      const words = prompt.split(/\s+/u).filter((w) => !STOP.has(w.toLowerCase().replace(/\W/gu, '')));
      const names = prompt.match(/\b[A-Z][a-z]+\b/gu) ?? [];
      const variants = [
        { kind: 'concept', text: prompt },
        { kind: 'method', text: words.join(' ') || prompt },
        { kind: 'continuity', text: `${names.join(' ')} conversation`.trim() },
      ];
      if (rng() < noise) variants.push({ kind: 'authority', text: 'weather forecast holidays' });
      return { variants };
    }
    // gate
    const intent = /^Intent: (.*)$/mu.exec(user)?.[1] ?? '';
    const question = intent.startsWith(INTENT_PREFIX) ? intent.slice(INTENT_PREFIX.length) : intent;
    const turns = evidence.get(norm(question)) ?? [];
    const memories = [...user.matchAll(/<memory ref="(m\d+)"[^>]*>\n([\s\S]*?)\n<\/memory>/gu)];
    return {
      verdicts: memories.map(([, ref, text]) => {
        const memory = norm(text ?? '');
        const holds = turns.some((t) => memory.includes(t.slice(0, 60)) || t.includes(memory.slice(0, 60)));
        const keep = rng() < noise ? !holds : holds;
        return { ref, keep, reason: keep ? 'about the question' : 'another subject' };
      }),
    };
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const text = await body(request);
      if (request.method !== 'POST' || !request.url?.endsWith('/v1/chat/completions')) {
        response.writeHead(404).end('not found');
        return;
      }
      const parsed = JSON.parse(text) as { messages: { role: string; content: string }[] };
      const stage = stageOf(parsed.messages.find((m) => m.role === 'system')?.content ?? '');
      const delay = options.delayMs?.[stage] ?? 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      if (options.fail) {
        calls.push({ stage, status: 500 });
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"the fake server fails every call"}}');
        return;
      }
      const user = parsed.messages.find((m) => m.role === 'user')?.content ?? '';
      const content = JSON.stringify(answer(stage, user));
      calls.push({ stage, status: 200 });
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
    })().catch((thrown: unknown) => {
      if (!response.headersSent) response.writeHead(400).end(String(thrown));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
