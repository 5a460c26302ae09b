import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { modelsForDevice, suggestedModel, WEBLLM_CATALOGUE } from '../../../src/lib/models/webllm-catalogue';
import {
  NO_WEBGPU,
  probeWebGpu,
  vramBudget,
  type GpuAdapterLike,
  type GpuLike,
  type WebGpuCapabilities,
} from '../../../src/lib/models/webllm-device';

const adapter = (features: string[], maxStorageBufferBindingSize = 2 ** 31): GpuAdapterLike => ({
  features: new Set(features),
  limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize },
  info: { vendor: 'test-vendor' },
});
const gpu = (result: GpuAdapterLike | null | Error): GpuLike => ({
  requestAdapter: () => (result instanceof Error ? Promise.reject(result) : Promise.resolve(result)),
});

describe('catalogue against the installed WebLLM', () => {
  it('lists real prebuilt ids with their exact VRAM figures', () => {
    for (const entry of WEBLLM_CATALOGUE) {
      const record = prebuiltAppConfig.model_list.find((r) => r.model_id === entry.modelId);
      expect(record, entry.modelId).toBeDefined();
      expect(record?.vram_required_MB).toBe(entry.vramMB);
      expect(record?.low_resource_required).toBe(true);
      expect(record?.overrides?.context_window_size).toBe(entry.contextWindow);
      if (record?.required_features?.includes('shader-f16')) expect(entry.needsShaderF16).toBe(true);
    }
  });

  it('marks every q4f16 model as needing shader-f16, even where WebLLM lists no required feature', () => {
    const unlisted = WEBLLM_CATALOGUE.filter((e) => e.needsShaderF16).filter(
      (e) => !prebuiltAppConfig.model_list.find((r) => r.model_id === e.modelId)?.required_features,
    );
    expect(unlisted.map((e) => e.modelId)).toContain('Qwen2.5-0.5B-Instruct-q4f16_1-MLC');
    expect(WEBLLM_CATALOGUE.filter((e) => !e.needsShaderF16).every((e) => e.modelId.includes('q4f32_1'))).toBe(true);
  });

  it('is sorted by VRAM, smallest first', () => {
    const vram = WEBLLM_CATALOGUE.map((e) => e.vramMB);
    expect([...vram].sort((a, b) => a - b)).toEqual(vram);
  });
});

describe('device probe', () => {
  it('reports no WebGPU without navigator.gpu, with a null adapter, or when the request throws', async () => {
    expect(await probeWebGpu(undefined)).toEqual(NO_WEBGPU);
    expect((await probeWebGpu(gpu(null))).reason).toMatch(/no adapter/u);
    expect(await probeWebGpu(gpu(new Error('blocked')))).toMatchObject({ webgpu: false, reason: expect.stringMatching(/blocked/u) });
  });

  it('reads shader-f16 and the limits from the adapter', async () => {
    expect(await probeWebGpu(gpu(adapter(['shader-f16'])))).toMatchObject({ webgpu: true, shaderF16: true, vendor: 'test-vendor' });
    expect(await probeWebGpu(gpu(adapter([])))).toMatchObject({ webgpu: true, shaderF16: false });
  });
});

describe('models offered for a device', () => {
  const caps = (over: Partial<WebGpuCapabilities>): WebGpuCapabilities => ({ ...NO_WEBGPU, webgpu: true, reason: null, ...over });
  const offered = (c: WebGpuCapabilities, mb: number | null) =>
    modelsForDevice(c, { megabytes: mb, source: mb === null ? 'unknown' : 'setting' })
      .filter((m) => m.offered)
      .map((m) => m.model.modelId);

  it('offers nothing without WebGPU, and says why for each model', () => {
    const choices = modelsForDevice(NO_WEBGPU, { megabytes: null, source: 'unknown' });
    expect(choices).toHaveLength(WEBLLM_CATALOGUE.length);
    expect(choices.every((c) => !c.offered && c.excludedBecause.includes('no-webgpu'))).toBe(true);
    expect(suggestedModel(choices)).toBeNull();
  });

  it('offers only q4f32 models without shader-f16 (a SwiftShader-like adapter)', () => {
    expect(offered(caps({ shaderF16: false }), null)).toEqual([
      'SmolLM2-360M-Instruct-q4f32_1-MLC',
      'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
      'Llama-3.2-1B-Instruct-q4f32_1-MLC',
    ]);
  });

  it('filters by the VRAM budget and flags when no budget was known', () => {
    expect(offered(caps({ shaderF16: true }), 900)).toEqual([
      'SmolLM2-360M-Instruct-q4f16_1-MLC',
      'SmolLM2-360M-Instruct-q4f32_1-MLC',
      'gemma3-1b-it-q4f16_1-MLC',
      'Llama-3.2-1B-Instruct-q4f16_1-MLC',
    ]);
    const choices = modelsForDevice(caps({ shaderF16: true }), { megabytes: 500, source: 'setting' });
    expect(choices.find((c) => c.model.modelId.startsWith('gemma3'))?.excludedBecause).toEqual(['over-vram-budget']);
    expect(modelsForDevice(caps({}), { megabytes: null, source: 'unknown' })[0]?.vramChecked).toBe(false);
    expect(suggestedModel(choices)?.modelId).toBe('SmolLM2-360M-Instruct-q4f16_1-MLC');
  });

  it('takes the VRAM budget from the setting, else half the device memory', () => {
    expect(vramBudget(1200, 8)).toEqual({ megabytes: 1200, source: 'setting' });
    expect(vramBudget(null, 4)).toEqual({ megabytes: 2048, source: 'device-memory-heuristic' });
    expect(vramBudget(undefined, undefined)).toEqual({ megabytes: null, source: 'unknown' });
  });
});
