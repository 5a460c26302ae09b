/**
 * Cross-encoder rerankers the vault offers (transformers.js ONNX exports on the Hugging Face hub),
 * smallest first. Sizes are the q8 ONNX files as the hub lists them (`onnx/model_quantized.onnx`);
 * none was downloaded on the development machine (no network to the hub there).
 *
 *   model                               params  q8 weights  layers
 *   Xenova/ms-marco-TinyBERT-L-2-v2       4.4M    4.5 MB     2     (BERT, MS MARCO)
 *   Xenova/ms-marco-MiniLM-L-6-v2        22.7M   23.1 MB     6     (BERT, MS MARCO) default
 *   Xenova/bge-reranker-base              278M    279 MB    12     (XLM-RoBERTa, multilingual; tokenizer.json 17 MB)
 *
 * MiniLM-L-6 is the default: the usual second stage over BM25 / bi-encoder candidates, small enough
 * to score 30 pairs in well under a second on WASM; bge-reranker-base is the stronger, multilingual
 * choice for a machine with WebGPU; TinyBERT-L-2 for a slow machine.
 */
import type { RerankerChoice, RerankerModelSpec } from '../core/api/reranker';

export const MS_MARCO_TINYBERT_L2: RerankerModelSpec = {
  modelId: 'Xenova/ms-marco-TinyBERT-L-2-v2',
  dtype: 'q8',
  params: 4_400_000,
  downloadBytes: 4_500_000,
  description: 'fastest, English (MS MARCO)',
};

export const MS_MARCO_MINILM_L6: RerankerModelSpec = {
  modelId: 'Xenova/ms-marco-MiniLM-L-6-v2',
  dtype: 'q8',
  params: 22_700_000,
  downloadBytes: 23_100_000,
  description: 'recommended, English (MS MARCO)',
};

export const BGE_RERANKER_BASE: RerankerModelSpec = {
  modelId: 'Xenova/bge-reranker-base',
  dtype: 'q8',
  params: 278_000_000,
  downloadBytes: 279_000_000,
  description: 'strongest, multilingual (plus a 17 MB tokenizer); best with WebGPU',
};

export const HUB_RERANKERS: readonly RerankerModelSpec[] = [MS_MARCO_TINYBERT_L2, MS_MARCO_MINILM_L6, BGE_RERANKER_BASE];

export const DEFAULT_RERANKER = MS_MARCO_MINILM_L6;

/** The generated test cross-encoder (scripts/make-test-model.ts): fp32, counts shared vocabulary words. */
export const TINY_TEST_RERANKER: RerankerModelSpec = {
  modelId: 'tiny-cross-encoder',
  dtype: 'fp32',
  params: null,
  downloadBytes: null,
  description: 'generated test model (counts shared words; not semantic)',
};

export const hubRerankerChoices = (): RerankerChoice[] => HUB_RERANKERS.map((spec) => ({ kind: 'reranker', spec, origin: 'hub' }));

export function rerankerLabel(choice: RerankerChoice): string {
  return `${choice.spec.modelId} (${choice.spec.dtype})`;
}
