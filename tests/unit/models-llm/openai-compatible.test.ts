import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionsUrl, OpenAiCompatibleLlm } from '../../../src/lib/models/openai-compatible-llm';

const recorded = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../../fixtures/llm/openai/${name}.json`, import.meta.url)), 'utf8');

type Handler = (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => void;
const requests: { url: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = [];
let handler: Handler = (_b, _r, res) => res.end();
let server: Server;
let base = '';

const reply =
  (status: number, body: string): Handler =>
  (_b, _r, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  };

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      requests.push({ url: req.url ?? '', headers: req.headers, body });
      handler(body, req, res);
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
  requests.length = 0;
});

const schema = { type: 'object', properties: { units: { type: 'array' } }, required: ['units'] };
const messages = [
  { role: 'system' as const, content: 'Extract units.' },
  { role: 'user' as const, content: 'My maple stands in a courtyard.' },
];

describe('OpenAI-compatible client against a local server', () => {
  it('builds the endpoint URL whether or not the base ends in /v1', () => {
    expect(chatCompletionsUrl('http://localhost:11434/v1/')).toBe('http://localhost:11434/v1/chat/completions');
    expect(chatCompletionsUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/v1/chat/completions');
  });

  it('posts a json_schema response_format with clamped temperature and returns the JSON content', async () => {
    handler = reply(200, recorded('chat-completion-json'));
    const llm = new OpenAiCompatibleLlm({ baseUrl: base, model: 'qwen2.5-0.5b-instruct', apiKey: 'k' });
    const text = await llm.complete(messages, { temperature: 0.5, jsonSchema: schema, maxTokens: 300 });
    expect(JSON.parse(text)).toMatchObject({ units: [{ kind: 'fact', sources: ['m1'] }] });
    expect(requests[0]?.url).toBe('/v1/chat/completions');
    expect(requests[0]?.headers.authorization).toBe('Bearer k');
    expect(requests[0]?.body).toMatchObject({
      model: 'qwen2.5-0.5b-instruct',
      temperature: 0.1,
      max_tokens: 300,
      stream: false,
      response_format: { type: 'json_schema', json_schema: { name: 'engram_output', strict: true, schema } },
    });
    expect(llm.id).toBe('openai-compatible:qwen2.5-0.5b-instruct');
  });

  it('falls back to schema instructions in the prompt when the server rejects response_format, and remembers it', async () => {
    handler = (body, req, res) =>
      body.response_format
        ? reply(400, recorded('error-response-format'))(body, req, res)
        : reply(200, recorded('chat-completion-fenced'))(body, req, res);
    const llm = new OpenAiCompatibleLlm({ baseUrl: base, model: 'm' });
    const text = await llm.complete(messages, { temperature: 0, jsonSchema: schema });
    expect(JSON.parse(text)).toHaveProperty('units');
    expect(requests).toHaveLength(2);
    const system = (requests[1]?.body.messages as { role: string; content: string }[])[0];
    expect(system?.content).toContain('Extract units.');
    expect(system?.content).toContain(JSON.stringify(schema));
    expect(llm.structuredMode).toBe('prompt');
    await llm.complete(messages, { temperature: 0, jsonSchema: schema });
    expect(requests).toHaveLength(3);
    expect(requests[2]?.body.response_format).toBeUndefined();
  });

  it('returns plain text when no schema is asked for', async () => {
    handler = reply(200, recorded('chat-completion-fenced'));
    const text = await new OpenAiCompatibleLlm({ baseUrl: base, model: 'm' }).complete(messages, { temperature: 0 });
    expect(text).toMatch(/^Here is the JSON/u);
  });

  it('reports JSON cut by the token limit as llm/invalid-output', async () => {
    handler = reply(200, recorded('chat-completion-truncated'));
    await expect(
      new OpenAiCompatibleLlm({ baseUrl: base, model: 'm' }).complete(messages, { temperature: 0, jsonSchema: schema }),
    ).rejects.toMatchObject({
      code: 'llm/invalid-output',
      message: expect.stringMatching(/ran out of output tokens/u),
    });
  });

  it('reports a body that is not JSON, or has no content, as llm/invalid-output', async () => {
    handler = reply(200, '<html>proxy page</html>');
    await expect(new OpenAiCompatibleLlm({ baseUrl: base, model: 'm' }).complete(messages, { temperature: 0 })).rejects.toMatchObject({
      code: 'llm/invalid-output',
    });
    handler = reply(200, '{"choices": []}');
    await expect(new OpenAiCompatibleLlm({ baseUrl: base, model: 'm' }).complete(messages, { temperature: 0 })).rejects.toMatchObject({
      code: 'llm/invalid-output',
    });
  });

  it('maps HTTP errors: 401 to a key hint, 404 to llm/unavailable, 500 to llm/failed', async () => {
    const llm = new OpenAiCompatibleLlm({ baseUrl: base, model: 'm' });
    handler = reply(401, '{"error":"unauthorized"}');
    await expect(llm.complete(messages, { temperature: 0 })).rejects.toMatchObject({
      code: 'llm/failed',
      message: expect.stringMatching(/API key/u),
    });
    handler = reply(404, '{"error":"model not found"}');
    await expect(llm.complete(messages, { temperature: 0 })).rejects.toMatchObject({ code: 'llm/unavailable' });
    handler = reply(500, '{"error":"oops"}');
    await expect(llm.complete(messages, { temperature: 0 })).rejects.toMatchObject({ code: 'llm/failed', detail: { status: 500 } });
  });

  it('times out with llm/timeout when the server does not answer', async () => {
    handler = () => undefined;
    await expect(
      new OpenAiCompatibleLlm({ baseUrl: base, model: 'm' }).complete(messages, { temperature: 0, timeoutMs: 50 }),
    ).rejects.toMatchObject({
      code: 'llm/timeout',
    });
  });

  it('cancels with llm/cancelled on abort', async () => {
    handler = () => undefined;
    const controller = new AbortController();
    const call = new OpenAiCompatibleLlm({ baseUrl: base, model: 'm' }).complete(messages, { temperature: 0, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(call).rejects.toMatchObject({ code: 'llm/cancelled' });
  });

  it('says the server is unreachable (or blocked by CORS) when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      new OpenAiCompatibleLlm({ baseUrl: `http://127.0.0.1:${port}`, model: 'm' }).complete(messages, { temperature: 0 }),
    ).rejects.toMatchObject({
      code: 'llm/unreachable',
      message: expect.stringMatching(/CORS/u),
    });
  });
});
