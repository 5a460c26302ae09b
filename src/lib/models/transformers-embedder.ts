/**
 * The neural embedder: a transformers.js feature-extraction pipeline (ONNX Runtime), pooled and
 * L2-normalized, batched. Models load from the Hugging Face hub into the browser cache (then work
 * offline), or from a local folder (tests, files a person provides) with remote loading off.
 */
import { env, pipeline, type ProgressInfo } from '@huggingface/transformers';
import type { Embedder } from '../core/api/embedder';
import { fail, toVaultError, VaultFailure } from '../core/errors';
import { DEFAULT_EMBEDDING_MODEL, embedderId, type EmbeddingModelSpec } from './embedding-models';
import { type InferenceDevice, pickDevice } from './model-device';

export type ModelSource =
  | { kind: 'remote' }
  /** A folder holding `<modelId>/config.json, tokenizer*.json, onnx/model*.onnx` (a path in Node, a URL path in the browser). */
  | { kind: 'local'; path: string };

export interface ModelLoadProgress {
  status: 'initiate' | 'download' | 'progress' | 'done' | 'ready' | 'progress_total';
  file?: string;
  loaded?: number;
  total?: number;
  /** 0-100. */
  progress?: number;
}

export interface TransformersEmbedderOptions {
  model?: EmbeddingModelSpec;
  source?: ModelSource;
  device?: InferenceDevice | 'auto';
  /**
   * Browser: ONNX Runtime's WASM from our own origin, so nothing comes from a CDN: a folder prefix,
   * or `{ wasm, mjs }` URLs (e.g. the `.wasm` asset Vite already emits for the worker).
   */
  wasmPaths?: WasmPaths;
  batchSize?: number;
  onProgress?: (progress: ModelLoadProgress) => void;
}

export type WasmPaths = NonNullable<NonNullable<typeof env.backends.onnx.wasm>['wasmPaths']>;

interface Tensor {
  data: Float32Array | number[];
  dims: number[];
  dispose?: () => void;
}
type Extractor = ((texts: string[], options: { pooling: 'mean' | 'cls'; normalize: boolean }) => Promise<Tensor>) & {
  dispose(): Promise<void>;
};

/** transformers.js's global environment for a load (one load at a time: it is global). */
export function configureEnvironment(source: ModelSource, wasmPaths: WasmPaths | undefined): void {
  if (source.kind === 'local') {
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = source.path.endsWith('/') ? source.path : `${source.path}/`;
  } else {
    env.allowRemoteModels = true;
    // In the browser a local probe would ask our own origin for /models/...: skip it.
    env.allowLocalModels = false;
    env.useBrowserCache = true;
  }
  const wasm = env.backends.onnx.wasm;
  if (wasmPaths && wasm) wasm.wasmPaths = wasmPaths;
}

export class TransformersEmbedder implements Embedder {
  readonly id: string;
  readonly dims: number;
  readonly kind = 'neural' as const;

  private constructor(
    readonly spec: EmbeddingModelSpec,
    readonly device: InferenceDevice,
    private readonly extractor: Extractor,
    private readonly batchSize: number,
  ) {
    this.id = embedderId(spec);
    this.dims = spec.dims;
  }

  static async load(options: TransformersEmbedderOptions = {}): Promise<TransformersEmbedder> {
    const spec = options.model ?? DEFAULT_EMBEDDING_MODEL;
    const source = options.source ?? { kind: 'remote' };
    const device = !options.device || options.device === 'auto' ? await pickDevice() : options.device;
    configureEnvironment(source, options.wasmPaths);
    try {
      const extractor = (await pipeline('feature-extraction', spec.modelId, {
        device,
        dtype: spec.dtype,
        progress_callback: (info: ProgressInfo) => options.onProgress?.(info as ModelLoadProgress),
      })) as unknown as Extractor;
      return new TransformersEmbedder(spec, device, extractor, options.batchSize ?? 16);
    } catch (thrown) {
      const cause = toVaultError(thrown, 'embed/unavailable');
      fail('embed/unavailable', `The embedding model ${spec.modelId} could not be loaded (${source.kind}, ${device}).`, {
        cause: cause.message,
      });
    }
  }

  /** Documents (chunks): embedded as they are. */
  embed(texts: readonly string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    return this.run(texts, options.signal);
  }

  /** Queries: with the model's query prefix, as it was trained. */
  embedQueries(texts: readonly string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    return this.run(
      texts.map((t) => this.spec.queryPrefix + t),
      options.signal,
    );
  }

  async dispose(): Promise<void> {
    await this.extractor.dispose();
  }

  private async run(texts: readonly string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      if (signal?.aborted) fail('embed/failed', 'Embedding was cancelled.', { reason: 'aborted', done: out.length });
      const batch = texts.slice(start, start + this.batchSize);
      let tensor: Tensor;
      try {
        tensor = await this.extractor(batch, { pooling: this.spec.pooling, normalize: true });
      } catch (thrown) {
        if (thrown instanceof VaultFailure) throw thrown;
        fail('embed/failed', 'The embedding model failed on a batch.', { cause: toVaultError(thrown).message, start });
      }
      const [rows, dims] = tensor.dims;
      // The dimension lock: a model that answers in another width must never reach an index.
      if (rows !== batch.length || dims !== this.dims) {
        fail('embed/failed', `The model returned ${rows}x${dims} vectors, expected ${batch.length}x${this.dims}.`, {
          modelId: this.spec.modelId,
        });
      }
      const data = Float32Array.from(tensor.data);
      for (let r = 0; r < rows; r++) out.push(data.slice(r * dims, (r + 1) * dims));
      tensor.dispose?.();
    }
    return out;
  }
}
