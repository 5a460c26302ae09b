/**
 * The cross-encoder reranker: a transformers.js text-classification model (loaded with
 * `pipeline('text-classification')`, so download, cache, device and dtype work as for the embedders)
 * run over query/passage pairs. The pipeline's own call takes single texts and softmaxes, which
 * turns a one-logit reranker into a constant 1.0; so the pairs go through its tokenizer
 * (`text_pair`) and model directly, in batches, and the raw relevance logit comes back (higher is
 * more relevant; the blend normalizes it). WebGPU when an adapter exists, WASM otherwise, ONNX
 * Runtime's CPU backend in Node.
 */
import { pipeline, type ProgressInfo } from '@huggingface/transformers';
import { rerankerId, type RerankerModelSpec } from '../core/api/reranker';
import type { Reranker } from '../core/recall/rerank';
import { fail, toVaultError, VaultFailure } from '../core/errors';
import { type InferenceDevice, pickDevice } from './model-device';
import { configureEnvironment, type ModelLoadProgress, type ModelSource, type WasmPaths } from './transformers-embedder';

export interface TransformersRerankerOptions {
  model: RerankerModelSpec;
  source?: ModelSource;
  device?: InferenceDevice | 'auto';
  wasmPaths?: WasmPaths;
  /** Pairs per model run. */
  batchSize?: number;
  /** Tokens per pair (cross-encoders of the BERT family read 512). */
  maxLength?: number;
  onProgress?: (progress: ModelLoadProgress) => void;
}

interface Tensor {
  data: Float32Array | number[];
  dims: number[];
  dispose?: () => void;
}

type Tokenize = (texts: string[], options: { text_pair: string[]; padding: boolean; truncation: boolean; max_length: number }) => unknown;
interface Classifier {
  tokenizer: Tokenize;
  model: (inputs: unknown) => Promise<{ logits: Tensor }>;
  dispose(): Promise<void>;
}

/** The relevance of each row: the single logit, or for a two-label head the "relevant" minus the other. */
export function relevanceLogits(logits: Tensor): number[] {
  const [rows, labels] = logits.dims as [number, number];
  const data = logits.data;
  const out: number[] = [];
  for (let r = 0; r < rows; r++) {
    const at = r * labels;
    out.push(labels === 1 ? Number(data[at]) : Number(data[at + labels - 1]) - Number(data[at]));
  }
  return out;
}

export class TransformersReranker implements Reranker {
  readonly id: string;

  private constructor(
    readonly spec: RerankerModelSpec,
    readonly device: InferenceDevice,
    private readonly classifier: Classifier,
    private readonly batchSize: number,
    private readonly maxLength: number,
  ) {
    this.id = rerankerId({ spec });
  }

  static async load(options: TransformersRerankerOptions): Promise<TransformersReranker> {
    const spec = options.model;
    const source = options.source ?? { kind: 'remote' };
    const device = !options.device || options.device === 'auto' ? await pickDevice() : options.device;
    configureEnvironment(source, options.wasmPaths);
    try {
      const classifier = (await pipeline('text-classification', spec.modelId, {
        device,
        dtype: spec.dtype,
        progress_callback: (info: ProgressInfo) => options.onProgress?.(info as ModelLoadProgress),
      })) as unknown as Classifier;
      return new TransformersReranker(spec, device, classifier, options.batchSize ?? 16, options.maxLength ?? 512);
    } catch (thrown) {
      fail('embed/unavailable', `The reranker ${spec.modelId} could not be loaded (${source.kind}, ${device}).`, {
        cause: toVaultError(thrown, 'embed/unavailable').message,
      });
    }
  }

  async score(query: string, passages: readonly string[], options: { signal?: AbortSignal } = {}): Promise<number[]> {
    const out: number[] = [];
    for (let start = 0; start < passages.length; start += this.batchSize) {
      if (options.signal?.aborted) fail('embed/failed', 'Reranking was cancelled.', { reason: 'aborted', done: out.length });
      const batch = passages.slice(start, start + this.batchSize);
      let logits: Tensor;
      try {
        const inputs = this.classifier.tokenizer(
          batch.map(() => query),
          { text_pair: batch, padding: true, truncation: true, max_length: this.maxLength },
        );
        ({ logits } = await this.classifier.model(inputs));
      } catch (thrown) {
        if (thrown instanceof VaultFailure) throw thrown;
        fail('embed/failed', 'The reranker failed on a batch.', { cause: toVaultError(thrown).message, start });
      }
      const scores = relevanceLogits(logits);
      logits.dispose?.();
      if (scores.length !== batch.length) fail('embed/failed', `The reranker returned ${scores.length} scores for ${batch.length} pairs.`);
      out.push(...scores);
    }
    return out;
  }

  async dispose(): Promise<void> {
    await this.classifier.dispose();
  }
}
