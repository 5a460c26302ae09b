/**
 * A model folder the person provides (a folder picked with `webkitdirectory`, or a ZIP of an ONNX
 * export such as the Hugging Face repo of a sentence-embedding model): find its root (the folder
 * holding config.json), check it has what transformers.js needs, and read what the vault must know
 * to run it (width, pooling, dtype from the ONNX file name).
 */
import { unzipSync } from 'fflate';
import type { EmbeddingModelSpec, ModelDtype, Pooling } from '../core/api/embedder';
import type { RerankerModelSpec } from '../core/api/reranker';
import { fail } from '../core/errors';

export interface ModelFile {
  /** Path inside the model folder, e.g. `onnx/model_quantized.onnx`. */
  path: string;
  bytes: Uint8Array;
}

/** ONNX file names transformers.js asks for, by dtype (suffix after `model`). */
const DTYPE_FILES: [ModelDtype, string][] = [
  ['q8', 'onnx/model_quantized.onnx'],
  ['fp32', 'onnx/model.onnx'],
  ['fp16', 'onnx/model_fp16.onnx'],
  ['q4', 'onnx/model_q4.onnx'],
];

const KEEP =
  /^(config\.json|tokenizer\.json|tokenizer_config\.json|special_tokens_map\.json|vocab\.txt|1_Pooling\/config\.json|onnx\/[^/]+\.onnx(_data(_\d+)?)?)$/u;

/** Entries of a ZIP (directories skipped). */
export function unzipModel(bytes: Uint8Array): ModelFile[] {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes);
  } catch (thrown) {
    fail('input/invalid', 'That file is not a ZIP archive that can be read.', { cause: String(thrown) });
  }
  return Object.entries(entries)
    .filter(([path]) => !path.endsWith('/'))
    .map(([path, data]) => ({ path, bytes: data }));
}

/** Re-roots the files at the folder holding config.json; keeps only what a model needs. */
export function modelRoot(files: readonly ModelFile[]): { name: string; files: ModelFile[] } {
  const configs = files
    .map((f) => f.path.replace(/^\.?\//u, ''))
    .filter((p) => p === 'config.json' || p.endsWith('/config.json'))
    .filter((p) => !p.endsWith('1_Pooling/config.json'))
    .sort((a, b) => a.length - b.length);
  const config = configs[0];
  if (!config) fail('input/invalid', 'No config.json found: choose the folder (or ZIP) of an ONNX export of an embedding model.');
  const prefix = config.slice(0, config.length - 'config.json'.length);
  const name = prefix.replace(/\/$/u, '').split('/').pop() || 'model';
  const rooted = files
    .map((f) => ({ path: f.path.replace(/^\.?\//u, ''), bytes: f.bytes }))
    .filter((f) => f.path.startsWith(prefix))
    .map((f) => ({ path: f.path.slice(prefix.length), bytes: f.bytes }))
    .map((f) => (/^[^/]+\.onnx$/u.test(f.path) ? { ...f, path: `onnx/${f.path}` } : f))
    .filter((f) => KEEP.test(f.path));
  return { name, files: rooted };
}

function json(files: readonly ModelFile[], path: string): Record<string, unknown> | null {
  const file = files.find((f) => f.path === path);
  if (!file) return null;
  try {
    return JSON.parse(new TextDecoder().decode(file.bytes)) as Record<string, unknown>;
  } catch {
    fail('input/invalid', `${path} in the model folder is not valid JSON.`);
  }
}

function modelIdOf(name: string): string {
  const id =
    name
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/gu, '-')
      .replace(/^[-.]+|[-.]+$/gu, '') || 'model';
  return `local/${id}`;
}

function dtypeOf(files: readonly ModelFile[], override: ModelDtype | undefined): ModelDtype {
  const dtype = override ?? DTYPE_FILES.find(([, path]) => files.some((f) => f.path === path))?.[0];
  if (!dtype) fail('input/invalid', 'The model folder has no ONNX weights (onnx/model.onnx or onnx/model_quantized.onnx).');
  return dtype;
}

/**
 * A provided cross-encoder: an ONNX export of a sequence-classification model with one relevance
 * output (config.json names a *ForSequenceClassification architecture, or says one label).
 */
export function describeReranker(name: string, files: readonly ModelFile[], overrides: Partial<RerankerModelSpec> = {}): RerankerModelSpec {
  const config = json(files, 'config.json');
  if (!files.some((f) => f.path === 'tokenizer.json')) fail('input/invalid', 'The model folder has no tokenizer.json.');
  const dtype = dtypeOf(files, overrides.dtype);
  const architectures = Array.isArray(config?.architectures) ? (config.architectures as unknown[]).map(String) : [];
  const labels =
    config?.id2label && typeof config.id2label === 'object' ? Object.keys(config.id2label).length : Number(config?.num_labels ?? NaN);
  const classifier = architectures.some((a) => a.endsWith('ForSequenceClassification')) || labels === 1;
  if (!classifier) {
    fail(
      'input/invalid',
      'This is not a cross-encoder: config.json names no *ForSequenceClassification architecture (choose a reranker export).',
    );
  }
  return { modelId: overrides.modelId ?? modelIdOf(name), dtype, params: null, downloadBytes: null, description: 'provided files' };
}

/** What the vault needs to run the model; `overrides` win (e.g. a query prefix the files cannot tell). */
export function describeModel(name: string, files: readonly ModelFile[], overrides: Partial<EmbeddingModelSpec> = {}): EmbeddingModelSpec {
  const config = json(files, 'config.json');
  if (!files.some((f) => f.path === 'tokenizer.json')) fail('input/invalid', 'The model folder has no tokenizer.json.');
  const dtype = overrides.dtype ?? DTYPE_FILES.find(([, path]) => files.some((f) => f.path === path))?.[0];
  if (!dtype) fail('input/invalid', 'The model folder has no ONNX weights (onnx/model.onnx or onnx/model_quantized.onnx).');
  const dims = overrides.dims ?? Number(config?.hidden_size ?? config?.d_model ?? NaN);
  if (!Number.isInteger(dims) || dims <= 0) fail('input/invalid', 'config.json does not say the width of the model (hidden_size).');
  const pooling = (json(files, '1_Pooling/config.json') ?? {}) as Record<string, unknown>;
  const mode: Pooling = pooling.pooling_mode_cls_token === true ? 'cls' : 'mean';
  const id =
    name
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/gu, '-')
      .replace(/^[-.]+|[-.]+$/gu, '') || 'model';
  return {
    modelId: overrides.modelId ?? `local/${id}`,
    dims,
    pooling: overrides.pooling ?? mode,
    dtype,
    queryPrefix: overrides.queryPrefix ?? '',
  };
}
