/**
 * What the device offers WebLLM: a WebGPU adapter, the `shader-f16` feature (needed by every
 * q*f16 model) and buffer limits. WebGPU exposes no VRAM figure, so a VRAM budget comes from the
 * person's setting or a heuristic on `navigator.deviceMemory`, and is labelled as such.
 */
export interface GpuAdapterLike {
  readonly features: { has(feature: string): boolean };
  readonly limits: { readonly maxBufferSize: number; readonly maxStorageBufferBindingSize: number };
  readonly info?: { readonly vendor?: string; readonly architecture?: string; readonly description?: string };
}

export interface GpuLike {
  requestAdapter(options?: { powerPreference?: 'low-power' | 'high-performance' }): Promise<GpuAdapterLike | null>;
}

export interface WebGpuCapabilities {
  webgpu: boolean;
  shaderF16: boolean;
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
  vendor: string;
  /** Why WebGPU is unusable, when it is. */
  reason: string | null;
}

export const NO_WEBGPU: WebGpuCapabilities = {
  webgpu: false,
  shaderF16: false,
  maxBufferSize: 0,
  maxStorageBufferBindingSize: 0,
  vendor: '',
  reason: 'This browser has no WebGPU (navigator.gpu is missing).',
};

/** Probe once, before anything is downloaded: WebLLM itself fetches the weights before it checks for a GPU. */
export async function probeWebGpu(gpu: GpuLike | undefined | null): Promise<WebGpuCapabilities> {
  if (!gpu) return NO_WEBGPU;
  let adapter: GpuAdapterLike | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (error) {
    return { ...NO_WEBGPU, reason: `The WebGPU adapter request failed: ${String(error)}` };
  }
  if (!adapter) return { ...NO_WEBGPU, reason: 'WebGPU is present but the browser gave no adapter (disabled or blocklisted GPU).' };
  return {
    webgpu: true,
    shaderF16: adapter.features.has('shader-f16'),
    maxBufferSize: adapter.limits.maxBufferSize,
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    vendor: adapter.info?.vendor || adapter.info?.description || '',
    reason: null,
  };
}

/** The navigator.gpu of this context, if any, without depending on WebGPU type declarations. */
export function navigatorGpu(): GpuLike | undefined {
  const nav = (globalThis as { navigator?: { gpu?: GpuLike } }).navigator;
  return nav?.gpu;
}

export interface VramBudget {
  megabytes: number | null;
  source: 'setting' | 'device-memory-heuristic' | 'unknown';
}

/**
 * A budget for model VRAM. An explicit setting wins; otherwise half of `navigator.deviceMemory`
 * (which browsers cap at 8 GB and round), as integrated GPUs share system memory.
 */
export function vramBudget(settingMB: number | null | undefined, deviceMemoryGB: number | undefined): VramBudget {
  if (settingMB && settingMB > 0) return { megabytes: settingMB, source: 'setting' };
  if (deviceMemoryGB && deviceMemoryGB > 0) {
    return { megabytes: Math.round((deviceMemoryGB * 1024) / 2), source: 'device-memory-heuristic' };
  }
  return { megabytes: null, source: 'unknown' };
}
