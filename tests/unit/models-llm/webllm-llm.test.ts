import { describe, expect, it, vi } from 'vitest';
import { webLlmError } from '../../../src/lib/models/webllm-errors';
import { WebLlm, type WebLlmCompletion, type WebLlmEngineLike, type WebLlmRequest } from '../../../src/lib/models/webllm-llm';

/** A fake engine: answers from a queue, or hangs until interruptGenerate() ends the generation. */
function fakeEngine(answers: (WebLlmCompletion | Error | 'hang')[]) {
  const requests: WebLlmRequest[] = [];
  let interrupt: (() => void) | null = null;
  const engine: WebLlmEngineLike & { interruptGenerate: ReturnType<typeof vi.fn>; unload: ReturnType<typeof vi.fn> } = {
    chat: {
      completions: {
        create: (request) => {
          requests.push(request);
          const next = answers.shift();
          if (next === 'hang') {
            return new Promise((resolve) => {
              interrupt = () => resolve({ choices: [{ message: { content: '{"units": [' }, finish_reason: 'abort' }] });
            });
          }
          if (next instanceof Error) return Promise.reject(next);
          return Promise.resolve(next ?? { choices: [] });
        },
      },
    },
    interruptGenerate: vi.fn(() => interrupt?.()),
    unload: vi.fn(() => Promise.resolve()),
  };
  return { engine, requests };
}
const answer = (content: string, finish_reason = 'stop'): WebLlmCompletion => ({ choices: [{ message: { content }, finish_reason }] });
const messages = [{ role: 'user' as const, content: 'Extract.' }];

describe('WebLlm adapter', () => {
  it('sends a non-streaming request with the schema as a string, clamped temperature and a fixed seed', async () => {
    const { engine, requests } = fakeEngine([answer('{"units": []}')]);
    const llm = new WebLlm(engine, 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
    const schema = { type: 'object', properties: { units: { type: 'array' } } };
    await expect(llm.complete(messages, { temperature: 0.7, jsonSchema: schema, maxTokens: 256 })).resolves.toBe('{"units": []}');
    expect(requests[0]).toEqual({
      messages,
      temperature: 0.1,
      seed: 7,
      stream: false,
      max_tokens: 256,
      response_format: { type: 'json_object', schema: JSON.stringify(schema) },
    });
    expect(llm.id).toBe('webllm:Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
    expect(llm.kind).toBe('webllm');
  });

  it('switches thinking off for a thinking model', async () => {
    const { engine, requests } = fakeEngine([answer('plain')]);
    await new WebLlm(engine, 'Qwen3-0.6B-q4f16_1-MLC').complete(messages, { temperature: 0 });
    expect(requests[0]?.extra_body).toEqual({ enable_thinking: false });
  });

  it('times out with llm/timeout and interrupts the generation', async () => {
    const { engine } = fakeEngine(['hang']);
    const llm = new WebLlm(engine, 'm');
    await expect(llm.complete(messages, { temperature: 0, timeoutMs: 20 })).rejects.toMatchObject({ code: 'llm/timeout' });
    expect(engine.interruptGenerate).toHaveBeenCalledTimes(1);
  });

  it('cancels with llm/cancelled on abort and interrupts only the running call', async () => {
    const { engine, requests } = fakeEngine(['hang', answer('second')]);
    const llm = new WebLlm(engine, 'm');
    const controller = new AbortController();
    const first = llm.complete(messages, { temperature: 0, signal: controller.signal });
    const second = llm.complete(messages, { temperature: 0 });
    await new Promise((r) => setTimeout(r, 10));
    expect(requests).toHaveLength(1);
    controller.abort();
    await expect(first).rejects.toMatchObject({ code: 'llm/cancelled' });
    await expect(second).resolves.toBe('second');
    expect(engine.interruptGenerate).toHaveBeenCalledTimes(1);
  });

  it('reports JSON cut by the token limit as llm/invalid-output', async () => {
    const { engine } = fakeEngine([answer('{"units": [{"kind"', 'length')]);
    await expect(new WebLlm(engine, 'm').complete(messages, { temperature: 0, jsonSchema: {} })).rejects.toMatchObject({
      code: 'llm/invalid-output',
      message: expect.stringMatching(/ran out of output tokens/u),
    });
  });

  it('maps engine errors (strings from the worker, or Errors) to llm codes', async () => {
    const { engine } = fakeEngine([new Error('x')]);
    await expect(new WebLlm(engine, 'm').complete(messages, { temperature: 0 })).rejects.toMatchObject({ code: 'llm/failed' });
    expect(webLlmError('WebGPUNotAvailableError: WebGPU is not supported', 'm').code).toBe('llm/unavailable');
    expect(webLlmError('ShaderF16SupportError: needs f16', 'm').message).toMatch(/q4f32/u);
    expect(webLlmError('DeviceLostError: lost', 'm').code).toBe('llm/unavailable');
    expect(webLlmError('ContextWindowSizeExceededError: too long', 'm').code).toBe('llm/context-too-long');
    expect(webLlmError(new TypeError('Failed to fetch'), 'm').code).toBe('llm/unreachable');
    expect(webLlmError('QuotaExceededError: full', 'm').code).toBe('store/quota-exceeded');
    expect(webLlmError('WorkerEngineModelNotLoadedError: not loaded', 'm').code).toBe('llm/unavailable');
  });

  it('frees the model on dispose', async () => {
    const { engine } = fakeEngine([]);
    await new WebLlm(engine, 'm').dispose();
    expect(engine.unload).toHaveBeenCalled();
  });
});
