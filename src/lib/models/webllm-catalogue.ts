import type { VramBudget, WebGpuCapabilities } from './webllm-device';

/**
 * The short list of small prebuilt WebLLM models the person may pick from. Ids, VRAM and features
 * are copied from `prebuiltAppConfig` of @mlc-ai/web-llm 0.2.86 (a test checks them against the
 * installed package), so the Settings screen can list models without loading the 6 MB library.
 */
export interface CatalogueModel {
  modelId: string;
  label: string;
  /** Parameters, in billions. */
  paramsB: number;
  quantization: 'q4f16_1' | 'q4f32_1';
  /** `vram_required_MB` from prebuiltAppConfig. */
  vramMB: number;
  /** Weights-only estimate (about 4.5 bits a parameter): shown as "about", the real size comes with download progress. */
  approxDownloadMB: number;
  /** Every q*f16 model needs `shader-f16`, even where prebuiltAppConfig lists no required feature. */
  needsShaderF16: boolean;
  contextWindow: number;
  /** Models with a thinking mode: it is switched off for structured output. */
  thinking: boolean;
}

const approx = (paramsB: number): number => Math.round((paramsB * 1000 * 4.5) / 8);

function model(
  modelId: string,
  label: string,
  paramsB: number,
  vramMB: number,
  extra: Partial<Pick<CatalogueModel, 'thinking'>> = {},
): CatalogueModel {
  const quantization = modelId.includes('q4f16_1') ? 'q4f16_1' : 'q4f32_1';
  return {
    modelId,
    label,
    paramsB,
    quantization,
    vramMB,
    approxDownloadMB: approx(paramsB),
    needsShaderF16: quantization === 'q4f16_1',
    contextWindow: 4096,
    thinking: extra.thinking ?? false,
  };
}

/** Smallest first. */
export const WEBLLM_CATALOGUE: readonly CatalogueModel[] = [
  model('SmolLM2-360M-Instruct-q4f16_1-MLC', 'SmolLM2 360M (f16)', 0.36, 376.06),
  model('SmolLM2-360M-Instruct-q4f32_1-MLC', 'SmolLM2 360M', 0.36, 579.61),
  model('gemma3-1b-it-q4f16_1-MLC', 'Gemma 3 1B (f16)', 1.0, 711.07),
  model('Llama-3.2-1B-Instruct-q4f16_1-MLC', 'Llama 3.2 1B (f16)', 1.24, 879.04),
  model('Qwen2.5-0.5B-Instruct-q4f16_1-MLC', 'Qwen2.5 0.5B (f16)', 0.49, 944.62),
  model('Qwen2.5-0.5B-Instruct-q4f32_1-MLC', 'Qwen2.5 0.5B', 0.49, 1060.2),
  model('Llama-3.2-1B-Instruct-q4f32_1-MLC', 'Llama 3.2 1B', 1.24, 1128.82),
  model('Qwen3-0.6B-q4f16_1-MLC', 'Qwen3 0.6B (f16)', 0.6, 1403.34, { thinking: true }),
];

export function catalogueModel(modelId: string): CatalogueModel | undefined {
  return WEBLLM_CATALOGUE.find((entry) => entry.modelId === modelId);
}

export type ExclusionReason = 'no-webgpu' | 'needs-shader-f16' | 'over-vram-budget';

export interface ModelChoice {
  model: CatalogueModel;
  offered: boolean;
  /** Why a model is not offered; empty when it is. */
  excludedBecause: ExclusionReason[];
  /** False when no VRAM budget was known, so fit is a guess. */
  vramChecked: boolean;
}

/**
 * Which catalogue models this device can run. Every model is returned with the reasons it is or
 * is not offered, so the UI can say why a model is missing rather than hide it silently.
 */
export function modelsForDevice(capabilities: WebGpuCapabilities, budget: VramBudget): ModelChoice[] {
  return WEBLLM_CATALOGUE.map((entry) => {
    const excludedBecause: ExclusionReason[] = [];
    if (!capabilities.webgpu) excludedBecause.push('no-webgpu');
    if (entry.needsShaderF16 && !capabilities.shaderF16) excludedBecause.push('needs-shader-f16');
    if (budget.megabytes !== null && entry.vramMB > budget.megabytes) excludedBecause.push('over-vram-budget');
    return { model: entry, offered: excludedBecause.length === 0, excludedBecause, vramChecked: budget.megabytes !== null };
  });
}

/** The model to suggest first: the smallest one offered (no quality ranking has been measured yet). */
export function suggestedModel(choices: readonly ModelChoice[]): CatalogueModel | null {
  const offered = choices.filter((choice) => choice.offered).map((choice) => choice.model);
  return offered[0] ?? null;
}
