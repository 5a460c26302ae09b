import { toVaultError, type VaultError } from '../core/errors';

/** The two cache functions of @mlc-ai/web-llm this module wraps (injected in tests). */
export interface WebLlmCacheLib {
  hasModelInCache(modelId: string, appConfig?: unknown): Promise<boolean>;
  deleteModelAllInfoInCache(modelId: string, appConfig?: unknown): Promise<void>;
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

/** Removes the model's weights, config and runtime from the cache (Settings: "remove model"). */
export async function removeCachedModel(modelId: string, lib?: WebLlmCacheLib): Promise<CacheResult<void>> {
  try {
    const webllm = lib ?? (await loadLib());
    await webllm.deleteModelAllInfoInCache(modelId, webllm.prebuiltAppConfig);
    return { ok: true, value: undefined };
  } catch (error) {
    return { ok: false, error: cacheError(error, 'clear') };
  }
}
