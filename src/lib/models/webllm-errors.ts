import { isVaultError, vaultError, type VaultError } from '../core/errors';

/**
 * WebLLM errors reach the page as strings: the worker handler posts `err.toString()`
 * ("WebGPUNotAvailableError: WebGPU is not supported ..."), and the page-side engine rejects with
 * that string. Errors thrown in the same thread are Error objects with the same names. Both are
 * mapped here by the class name WebLLM gives them (see its lib/error.d.ts, 0.2.86).
 */
const UNAVAILABLE = [
  'WebGPUNotAvailableError',
  'WebGPUNotFoundError',
  'ShaderF16SupportError',
  'FeatureSupportError',
  'DeviceLostError',
  'ModelNotFoundError',
  'MissingModelWasmError',
  'NonWorkerEnvironmentError',
];
const NOT_LOADED = ['ModelNotLoadedError', 'WorkerEngineModelNotLoadedError', 'EngineNotLoadedError'];

const HINTS: Record<string, string> = {
  WebGPUNotAvailableError: 'This browser offers no WebGPU, which the in-browser model needs.',
  WebGPUNotFoundError: 'This browser offers no WebGPU, which the in-browser model needs.',
  ShaderF16SupportError: 'This model needs the WebGPU shader-f16 feature, which this device lacks. Pick a q4f32 model.',
  FeatureSupportError: 'This model needs a WebGPU feature this device lacks. Pick another model.',
  DeviceLostError: 'The graphics device ran out of memory loading this model. Pick a smaller model.',
  ModelNotFoundError: 'This model is not in the model list.',
  MissingModelWasmError: 'This model has no runtime library configured.',
  NonWorkerEnvironmentError: 'The model worker was started in the wrong kind of context.',
};

function nameAndMessage(thrown: unknown): { name: string; message: string } {
  if (thrown instanceof Error) return { name: thrown.name, message: thrown.message };
  const text = typeof thrown === 'string' ? thrown : (JSON.stringify(thrown) ?? String(thrown));
  const match = /^([A-Za-z0-9]+Error):\s*([\s\S]*)$/u.exec(text);
  return match ? { name: match[1] ?? 'Error', message: match[2] ?? text } : { name: 'Error', message: text };
}

export function webLlmError(thrown: unknown, modelId: string): VaultError {
  if (isVaultError(thrown)) return thrown;
  const { name, message } = nameAndMessage(thrown);
  const detail = { modelId, name, message: message.slice(0, 500) };
  if (UNAVAILABLE.includes(name)) return vaultError('llm/unavailable', HINTS[name] ?? message, detail);
  if (NOT_LOADED.includes(name)) {
    return vaultError('llm/unavailable', 'The in-browser model is not loaded (the worker may have restarted).', detail);
  }
  if (name === 'ContextWindowSizeExceededError') {
    return vaultError('llm/context-too-long', 'The text sent to the model is longer than its context window.', detail);
  }
  if (name === 'QuotaExceededError' || /quota/iu.test(message)) {
    return vaultError('store/quota-exceeded', 'The browser has no room left to store the model files.', detail);
  }
  if (/failed to fetch|networkerror|load failed|network error|fetch failed/iu.test(message)) {
    return vaultError(
      'llm/unreachable',
      'The model files could not be downloaded. Check the connection, or pick a model that is already cached.',
      detail,
    );
  }
  return vaultError('llm/failed', `The in-browser model failed: ${message.slice(0, 200)}`, detail);
}
