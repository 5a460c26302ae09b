import { describe, expect, it, vi } from 'vitest';
import * as Comlink from 'comlink';
import type { LlmPort } from '../../../src/lib/core/api/llm-port';
import { checkEndpointUrl, llmStatusText } from '../../../src/lib/client/llm-status';
import { serveLlmPort } from '../../../src/lib/models/llm-port';
import { VaultFailure, vaultError } from '../../../src/lib/core/errors';
import { modelsForDevice, suggestedModel } from '../../../src/lib/models/webllm-catalogue';
import { createWebLlm } from '../../../src/lib/models/webllm-create';
import { NO_WEBGPU, probeWebGpu, vramBudget, type WebGpuCapabilities } from '../../../src/lib/models/webllm-device';
import { RemoteLlm } from '../../../src/lib/services/llm/remote-llm';
import { scriptedLlm } from '../../factories/scripted-llm';

const GPU_NO_F16: WebGpuCapabilities = {
  webgpu: true,
  shaderF16: false,
  maxBufferSize: 1 << 30,
  maxStorageBufferBindingSize: 1 << 30,
  vendor: 'test',
  reason: null,
};

describe('the WebLLM path on a machine without WebGPU', () => {
  it('offers no model and says why; the status names the fallback', async () => {
    const capabilities = await probeWebGpu(undefined);
    expect(capabilities.webgpu).toBe(false);
    const choices = modelsForDevice(capabilities, vramBudget(null, undefined));
    expect(choices.length).toBeGreaterThan(0);
    expect(choices.every((c) => !c.offered && c.excludedBecause.includes('no-webgpu'))).toBe(true);
    expect(suggestedModel(choices)).toBeNull();
    const text = llmStatusText({ phase: 'none', capabilities, active: null, loadingModelId: null, progress: null });
    expect(text).toContain('WebLLM is unavailable on this device');
    expect(text).toContain('rule-based extractor');
  });

  it('engine creation fails cleanly with llm/unavailable before anything is downloaded', async () => {
    let factoryCalled = false;
    const worker = { onmessage: null, postMessage: () => undefined };
    await expect(
      createWebLlm({
        modelId: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
        worker,
        capabilities: NO_WEBGPU,
        createEngine: async () => {
          factoryCalled = true;
          throw new Error('unreachable');
        },
      }),
    ).rejects.toMatchObject({ code: 'llm/unavailable' });
    expect(factoryCalled).toBe(false);
  });

  it('without shader-f16 only q4f32 models are offered; a VRAM budget filters the rest', () => {
    const choices = modelsForDevice(GPU_NO_F16, vramBudget(1024, undefined));
    const offered = choices.filter((c) => c.offered).map((c) => c.model.modelId);
    expect(offered).toEqual(['SmolLM2-360M-Instruct-q4f32_1-MLC']);
    expect(choices.find((c) => c.model.modelId === 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC')?.excludedBecause).toEqual(['over-vram-budget']);
  });
});

describe('LLM client helpers', () => {
  it('names the model in use and warns that an endpoint receives text', () => {
    const base = { phase: 'ready' as const, capabilities: NO_WEBGPU, loadingModelId: null, progress: null };
    expect(llmStatusText({ ...base, active: { id: 'webllm:SmolLM2-360M-Instruct-q4f32_1-MLC', kind: 'webllm' } })).toBe(
      'In use: SmolLM2 360M, running in this browser with WebLLM.',
    );
    expect(llmStatusText({ ...base, active: { id: 'openai-compatible:qwen', kind: 'openai-compatible' } })).toContain(
      'Conversation text is sent to that server',
    );
    expect(
      llmStatusText({ ...base, phase: 'loading', active: null, loadingModelId: 'SmolLM2-360M-Instruct-q4f32_1-MLC', progress: 0.25 }),
    ).toContain('Loading SmolLM2 360M (25%)');
  });

  it('accepts only a server on this machine (what the CSP connect-src allows)', () => {
    expect(checkEndpointUrl('http://127.0.0.1:8080/')).toEqual({ ok: true, value: 'http://127.0.0.1:8080' });
    expect(checkEndpointUrl('http://localhost:11434/v1')).toEqual({ ok: true, value: 'http://localhost:11434/v1' });
    for (const bad of ['https://api.example.com', 'http://192.168.1.2:8080', 'ftp://localhost:21', 'not a url']) {
      expect(checkEndpointUrl(bad).ok).toBe(false);
    }
  });

  it('the port returns errors as results and the borrowing side rethrows them with their code', async () => {
    const failing = serveLlmPort(
      scriptedLlm(() => {
        throw new VaultFailure(vaultError('llm/invalid-output', 'bad json'));
      }),
    );
    expect(await failing.complete([], { temperature: 0 }, 1)).toEqual({
      ok: false,
      error: { code: 'llm/invalid-output', message: 'bad json' },
    });
    const remote = new RemoteLlm({ id: 'fake', kind: 'fake' }, failing);
    await expect(remote.complete([], { temperature: 0 })).rejects.toMatchObject({ code: 'llm/invalid-output' });
    const echo = new RemoteLlm({ id: 'fake', kind: 'fake' }, serveLlmPort({ id: 'e', kind: 'fake', complete: async (m) => m[0]!.content }));
    expect(await echo.complete([{ role: 'user', content: 'hi' }], { temperature: 0 })).toBe('hi');
  });

  it('a lender that stops answering times the call out; a cancelled call is cancelled by id at the lender', async () => {
    const hanging: LlmPort = { complete: () => new Promise(() => undefined), cancel: () => undefined };
    const remote = new RemoteLlm({ id: 'fake', kind: 'fake' }, hanging, { graceMs: 0 });
    await expect(remote.complete([], { temperature: 0, timeoutMs: 10 })).rejects.toMatchObject({ code: 'llm/timeout' });

    // Across a real MessageChannel with comlink, as between the index worker and the LLM worker.
    const seen: AbortSignal[] = [];
    const lender = serveLlmPort({
      id: 'slow',
      kind: 'fake',
      complete: (_messages, options) =>
        new Promise<string>((_resolve, reject) => {
          seen.push(options.signal!);
          options.signal!.addEventListener('abort', () => reject(new VaultFailure(vaultError('llm/cancelled', 'stopped'))));
        }),
    });
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(lender, port1);
    const borrowed = new RemoteLlm({ id: 'slow', kind: 'fake' }, Comlink.wrap<LlmPort>(port2));
    const controller = new AbortController();
    const call = borrowed.complete([], { temperature: 0, signal: controller.signal });
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'llm/cancelled' });
    await vi.waitFor(() => expect(seen[0]!.aborted).toBe(true));
    port1.close();
    port2.close();
  });
});
