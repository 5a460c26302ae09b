import { toVaultError, type VaultError } from '../core/errors';

/** The two cache functions of @mlc-ai/web-llm this module wraps (injected in tests). */
export interface WebLlmCacheLib {
  hasModelInCache(modelId: string, appConfig?: unknown): Promise<boolean>;
  deleteModelAllInfoInCache(modelId: string, appConfig?: unknown): Promise<void>;
  deleteModelWasmInCache(modelId: string, appConfig?: unknown): Promise<void>;
  deleteChatConfigInCache(modelId: string, appConfig?: unknown): Promise<void>;
  prebuiltAppConfig: unknown;
}

const loadLib = async (): Promise<WebLlmCacheLib> => (await import('@mlc-ai/web-llm')) as unknown as WebLlmCacheLib;

export type CacheResult<T> = { ok: true; value: T } | { ok: false; error: VaultError };

function cacheError(thrown: unknown, action: string): VaultError {
  const error = toVaultError(thrown, 'llm/unavailable');
  if (error.code === 'store/quota-exceeded') return error;
  return { ...error, code: 'llm/unavailable', message: `Could not ${action} the model cache: ${error.message}` };
}

/** Whether every file of the model (weights, config, runtime) is in the browser's cache: offline-ready. */
export async function isModelCached(modelId: string, lib?: WebLlmCacheLib): Promise<CacheResult<boolean>> {
  try {
    const webllm = lib ?? (await loadLib());
    return { ok: true, value: await webllm.hasModelInCache(modelId, webllm.prebuiltAppConfig) };
  } catch (error) {
    return { ok: false, error: cacheError(error, 'read') };
  }
}

/**
 * Removes the model's weights, config and runtime from the cache (Settings: "remove model").
 * WebLLM deletes the weights by reading their manifest, which it downloads when it is not cached;
 * so for a model that is not fully cached only the runtime and config entries are removed
 * (`'runtime-and-config'`), and nothing is fetched.
 */
export async function removeCachedModel(modelId: string, lib?: WebLlmCacheLib): Promise<CacheResult<'all' | 'runtime-and-config'>> {
  try {
    const webllm = lib ?? (await loadLib());
    const config = webllm.prebuiltAppConfig;
    if (await webllm.hasModelInCache(modelId, config)) {
      await webllm.deleteModelAllInfoInCache(modelId, config);
      return { ok: true, value: 'all' };
    }
    await webllm.deleteModelWasmInCache(modelId, config);
    await webllm.deleteChatConfigInCache(modelId, config);
    return { ok: true, value: 'runtime-and-config' };
  } catch (error) {
    return { ok: false, error: cacheError(error, 'clear') };
  }
}
