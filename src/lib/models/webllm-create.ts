import { VaultFailure, vaultError } from '../core/errors';
import { catalogueModel } from './webllm-catalogue';
import type { WebGpuCapabilities } from './webllm-device';
import { webLlmError } from './webllm-errors';
import { WebLlm, type WebLlmEngineLike, type WebLlmOptions } from './webllm-llm';

/** The page side of a WebLLM worker: a `Worker`, or any object with the same two members. */
export interface ChatWorkerLike {
  onmessage: unknown;
  postMessage(message: unknown): void;
}

export interface LoadProgress {
  /** 0 - 1. */
  progress: number;
  text: string;
  elapsedSeconds: number;
}

export type EngineFactory = (
  worker: ChatWorkerLike,
  modelId: string,
  onProgress: (report: { progress: number; text: string; timeElapsed: number }) => void,
) => Promise<WebLlmEngineLike>;

export interface CreateWebLlmOptions extends WebLlmOptions {
  modelId: string;
  worker: ChatWorkerLike;
  /** Result of `probeWebGpu()`: the engine is only created when WebGPU is usable. */
  capabilities: WebGpuCapabilities;
  onProgress?: (progress: LoadProgress) => void;
  signal?: AbortSignal;
  /** Defaults to WebLLM's `CreateWebWorkerMLCEngine`, loaded on demand. */
  createEngine?: EngineFactory;
}

/** `CreateWebWorkerMLCEngine` with the prebuilt app config; the library is imported only when a model is loaded. */
export const createWebWorkerEngine: EngineFactory = async (worker, modelId, onProgress) => {
  const webllm = await import('@mlc-ai/web-llm');
  const engine = await webllm.CreateWebWorkerMLCEngine(worker, modelId, {
    appConfig: { ...webllm.prebuiltAppConfig, cacheBackend: 'cache' },
    initProgressCallback: onProgress,
  });
  return engine as unknown as WebLlmEngineLike;
};

/**
 * Loads a model in the WebLLM worker and wraps it as an `Llm`. Fails with `llm/unavailable`
 * before anything is downloaded when the device cannot run the model (WebLLM downloads the
 * weights before it looks for a GPU). Cancelling during the load unloads the engine when it arrives.
 */
export async function createWebLlm(options: CreateWebLlmOptions): Promise<WebLlm> {
  const { modelId, capabilities } = options;
  if (!capabilities.webgpu) {
    throw new VaultFailure(vaultError('llm/unavailable', capabilities.reason ?? 'This browser offers no WebGPU.', { modelId }));
  }
  if (catalogueModel(modelId)?.needsShaderF16 && !capabilities.shaderF16) {
    throw new VaultFailure(
      vaultError('llm/unavailable', 'This model needs the WebGPU shader-f16 feature, which this device lacks.', {
        modelId,
      }),
    );
  }
  if (options.signal?.aborted) throw new VaultFailure(vaultError('llm/cancelled', 'Loading the model was cancelled.'));

  const factory = options.createEngine ?? createWebWorkerEngine;
  const loading = factory(options.worker, modelId, (report) =>
    options.onProgress?.({ progress: report.progress, text: report.text, elapsedSeconds: report.timeElapsed }),
  );
  const engine = await new Promise<WebLlmEngineLike>((resolve, reject) => {
    const onAbort = (): void => {
      reject(new VaultFailure(vaultError('llm/cancelled', 'Loading the model was cancelled.')));
      loading.then((late) => late.unload()).catch(() => undefined);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    loading.then(
      (value) => {
        options.signal?.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        options.signal?.removeEventListener('abort', onAbort);
        reject(new VaultFailure(webLlmError(error, modelId)));
      },
    );
  });
  return new WebLlm(engine, modelId, options);
}
