import { afterEach, describe, expect, it, vi } from 'vitest';
import { isModelCached, removeCachedModel, type WebLlmCacheLib } from '../../../src/lib/models/webllm-cache';
import { createWebLlm, createWebWorkerEngine, type ChatWorkerLike } from '../../../src/lib/models/webllm-create';
import { NO_WEBGPU, type WebGpuCapabilities } from '../../../src/lib/models/webllm-device';
import type { WebLlmEngineLike } from '../../../src/lib/models/webllm-llm';
import { serveWebLlm, type WorkerScopeLike } from '../../../src/lib/models/webllm-worker-handler';

const GPU: WebGpuCapabilities = { ...NO_WEBGPU, webgpu: true, shaderF16: false, reason: null };
const fakeWorker: ChatWorkerLike = { onmessage: null, postMessage: () => undefined };
const fakeEngine = (): WebLlmEngineLike => ({
  chat: { completions: { create: () => Promise.resolve({ choices: [{ message: { content: 'hi' }, finish_reason: 'stop' }] }) } },
  interruptGenerate: () => undefined,
  unload: vi.fn(() => Promise.resolve()),
});

/** The page side and the worker side of WebLLM, wired through an in-memory channel, both real WebLLM code. */
function channel(): ChatWorkerLike {
  const page: ChatWorkerLike & { onmessage: ((e: MessageEvent) => void) | null } = {
    onmessage: null,
    postMessage: (message) => queueMicrotask(() => scope.onmessage?.(new MessageEvent('message', { data: message }))),
  };
  const scope: WorkerScopeLike = {
    onmessage: null,
    postMessage: (message) => queueMicrotask(() => page.onmessage?.(new MessageEvent('message', { data: message }))),
  };
  serveWebLlm(scope);
  return page;
}

describe('creating the WebLLM engine', () => {
  it('fails with llm/unavailable when WebGPU is absent, before any engine or download is started', async () => {
    const createEngine = vi.fn();
    await expect(
      createWebLlm({ modelId: 'SmolLM2-360M-Instruct-q4f32_1-MLC', worker: fakeWorker, capabilities: NO_WEBGPU, createEngine }),
    ).rejects.toMatchObject({
      code: 'llm/unavailable',
      message: expect.stringMatching(/WebGPU/u),
    });
    expect(createEngine).not.toHaveBeenCalled();
  });

  it('fails with llm/unavailable for an f16 model on a device without shader-f16', async () => {
    const createEngine = vi.fn();
    await expect(
      createWebLlm({ modelId: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', worker: fakeWorker, capabilities: GPU, createEngine }),
    ).rejects.toMatchObject({
      code: 'llm/unavailable',
    });
    expect(createEngine).not.toHaveBeenCalled();
  });

  it('reports load progress and returns a working Llm', async () => {
    const progress: number[] = [];
    const llm = await createWebLlm({
      modelId: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
      worker: fakeWorker,
      capabilities: GPU,
      onProgress: (p) => progress.push(p.progress),
      createEngine: async (_worker, _id, onProgress) => {
        onProgress({ progress: 0.5, text: 'Fetching', timeElapsed: 1 });
        onProgress({ progress: 1, text: 'Done', timeElapsed: 2 });
        return fakeEngine();
      },
    });
    expect(progress).toEqual([0.5, 1]);
    await expect(llm.complete([{ role: 'user', content: 'x' }], { temperature: 0 })).resolves.toBe('hi');
  });

  it('cancels a load and unloads the engine when it arrives', async () => {
    const engine = fakeEngine();
    let finish: (e: WebLlmEngineLike) => void = () => undefined;
    const controller = new AbortController();
    const loading = createWebLlm({
      modelId: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
      worker: fakeWorker,
      capabilities: GPU,
      signal: controller.signal,
      createEngine: () => new Promise((resolve) => (finish = resolve)),
    });
    controller.abort();
    await expect(loading).rejects.toMatchObject({ code: 'llm/cancelled' });
    finish(engine);
    await new Promise((r) => setTimeout(r, 0));
    expect(engine.unload).toHaveBeenCalled();
  });

  it('real WebLLM page and worker sides: an engine failure crosses the worker boundary as a mapped error', async () => {
    await expect(
      createWebLlm({ modelId: 'no-such-model-MLC', worker: channel(), capabilities: GPU, createEngine: createWebWorkerEngine }),
    ).rejects.toMatchObject({ code: 'llm/unavailable', detail: { name: 'ModelNotFoundError' } });
  });
});

describe('model cache helpers', () => {
  const lib = (cached: boolean) =>
    ({
      prebuiltAppConfig: {},
      hasModelInCache: vi.fn((_id: string) => Promise.resolve(cached)),
      deleteModelAllInfoInCache: vi.fn((_id: string, _config?: unknown) => Promise.resolve()),
      deleteModelWasmInCache: vi.fn((_id: string) => Promise.resolve()),
      deleteChatConfigInCache: vi.fn((_id: string) => Promise.resolve()),
    }) satisfies WebLlmCacheLib;

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reads and removes a cached model', async () => {
    const cached = lib(true);
    expect(await isModelCached('m', cached)).toEqual({ ok: true, value: true });
    expect(await removeCachedModel('m', cached)).toEqual({ ok: true, value: 'all' });
    expect(cached.deleteModelAllInfoInCache).toHaveBeenCalledWith('m', {});
  });

  it('for a model not fully cached removes only runtime and config (WebLLM would download the manifest)', async () => {
    const partial = lib(false);
    expect(await removeCachedModel('m', partial)).toEqual({ ok: true, value: 'runtime-and-config' });
    expect(partial.deleteModelAllInfoInCache).not.toHaveBeenCalled();
  });

  it('real WebLLM in Node (no Cache API): fails cleanly with llm/unavailable', async () => {
    const result = await isModelCached('SmolLM2-360M-Instruct-q4f32_1-MLC');
    expect(result).toMatchObject({ ok: false, error: { code: 'llm/unavailable' } });
  });

  it('real WebLLM with an empty Cache API: not cached, and removal fetches nothing', async () => {
    const store = { match: () => Promise.resolve(undefined), keys: () => Promise.resolve([]), delete: () => Promise.resolve(false) };
    vi.stubGlobal('caches', {
      open: () => Promise.resolve(store),
      has: () => Promise.resolve(false),
      delete: () => Promise.resolve(false),
      keys: () => Promise.resolve([]),
    });
    const fetchSpy = vi.fn(() => Promise.reject(new Error('no network in tests')));
    vi.stubGlobal('fetch', fetchSpy);
    expect(await isModelCached('SmolLM2-360M-Instruct-q4f32_1-MLC')).toEqual({ ok: true, value: false });
    expect(await removeCachedModel('SmolLM2-360M-Instruct-q4f32_1-MLC')).toEqual({ ok: true, value: 'runtime-and-config' });
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
