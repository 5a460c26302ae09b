import type { LlmInfo } from '../core/api/llm-port';
import { vaultError, type Result, err, ok } from '../core/errors';
import { catalogueModel, type ModelChoice, type ExclusionReason } from '../models/webllm-catalogue';
import type { WebGpuCapabilities } from '../models/webllm-device';

/** The model catalogue's and the device probe's shapes, as the Settings screen shows them. */
export type { ModelChoice } from '../models/webllm-catalogue';
export type { VramBudget, WebGpuCapabilities } from '../models/webllm-device';

/**
 * What the Settings screen says about the language model, as pure functions of the client's
 * state: which model or fallback is in use, why a model is not offered, and whether an endpoint
 * URL is one the app may call (the CSP's connect-src allows loopback only).
 */
export type LlmPhase = 'probing' | 'none' | 'loading' | 'ready' | 'failed';

export interface LlmStatusInput {
  phase: LlmPhase;
  capabilities: WebGpuCapabilities | null;
  active: LlmInfo | null;
  loadingModelId: string | null;
  progress: number | null;
}

export const FALLBACK_SENTENCE =
  'Extraction uses the rule-based extractor, session summaries are extractive, and recall runs without query decomposition or the fit-gate model.';

export function modelLabel(id: string): string {
  if (id.startsWith('webllm:')) return catalogueModel(id.slice('webllm:'.length))?.label ?? id.slice('webllm:'.length);
  if (id.startsWith('openai-compatible:')) return `${id.slice('openai-compatible:'.length)} (your local server)`;
  return id;
}

export function llmStatusText(input: LlmStatusInput): string {
  const { phase, capabilities, active } = input;
  if (phase === 'probing') return 'Checking this device for WebGPU…';
  if (phase === 'loading' && input.loadingModelId) {
    const pct = input.progress === null ? '' : ` (${Math.round(input.progress * 100)}%)`;
    return `Loading ${modelLabel(`webllm:${input.loadingModelId}`)}${pct}. Until it is ready: ${FALLBACK_SENTENCE}`;
  }
  if (active?.kind === 'webllm') return `In use: ${modelLabel(active.id)}, running in this browser with WebLLM.`;
  if (active?.kind === 'openai-compatible') {
    return `In use: ${modelLabel(active.id)}. Conversation text is sent to that server for extraction and recall.`;
  }
  const webllm = capabilities?.webgpu
    ? 'No model is loaded: pick one below to run extraction with WebLLM in this browser.'
    : `WebLLM is unavailable on this device: ${capabilities?.reason ?? 'no WebGPU'}.`;
  return `${webllm} No language model is in use. ${FALLBACK_SENTENCE}`;
}

const REASONS: Record<ExclusionReason, string> = {
  'no-webgpu': 'needs WebGPU',
  'needs-shader-f16': 'needs the shader-f16 feature',
  'over-vram-budget': 'needs more graphics memory than this device is estimated to have',
};

export function exclusionText(choice: ModelChoice): string {
  return choice.excludedBecause.map((r) => REASONS[r]).join('; ');
}

/** Only an http(s) URL on this machine: localhost or 127.0.0.1 (what the Content-Security-Policy allows). */
export function checkEndpointUrl(raw: string): Result<string> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return err(vaultError('input/invalid', 'That is not a URL. Example: http://127.0.0.1:8080'));
  }
  if (url.protocol !== 'http:' || !['localhost', '127.0.0.1'].includes(url.hostname)) {
    return err(vaultError('input/invalid', 'Only a server on this machine can be used: http://localhost:PORT or http://127.0.0.1:PORT.'));
  }
  return ok(url.toString().replace(/\/+$/u, ''));
}
