/**
 * Where a transformers.js model runs: WebGPU only when `navigator.gpu` hands out an adapter, WASM
 * otherwise in a browser, and ONNX Runtime's native CPU backend in Node (tests, CLI).
 */
export type InferenceDevice = 'webgpu' | 'wasm' | 'cpu';

interface GpuNavigator {
  gpu?: { requestAdapter(): Promise<unknown> };
}

export function isNode(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof proc?.versions?.node === 'string';
}

export async function pickDevice(
  nav: GpuNavigator | undefined = (globalThis as { navigator?: GpuNavigator }).navigator,
  inNode: boolean = isNode(),
): Promise<InferenceDevice> {
  if (inNode) return 'cpu';
  try {
    if (nav?.gpu && (await nav.gpu.requestAdapter())) return 'webgpu';
  } catch {
    // An adapter request can throw (blocklisted GPU, lost device): WASM still works.
  }
  return 'wasm';
}
