/**
 * Target models and the share of their context window a package may fill. The package stays within
 * 75-80 % of the window so the person's own prompt and the model's answer keep the rest.
 * Windows are the providers' published context lengths; a custom number covers anything else.
 */

export interface ModelTarget {
  id: string;
  label: string;
  /** Context window in tokens. */
  window: number;
}

export const MODEL_TARGETS: readonly ModelTarget[] = [
  { id: 'gpt-4o', label: 'GPT-4o', window: 128_000 },
  { id: 'gpt-4.1', label: 'GPT-4.1', window: 1_047_576 },
  { id: 'gpt-5', label: 'GPT-5', window: 400_000 },
  { id: 'o3', label: 'OpenAI o3', window: 200_000 },
  { id: 'claude-sonnet-4', label: 'Claude Sonnet 4', window: 200_000 },
  { id: 'claude-opus-4', label: 'Claude Opus 4', window: 200_000 },
  { id: 'gemini-2.5-pro', label: 'Gemini 2.5 Pro', window: 1_048_576 },
  { id: 'gemini-2.5-flash', label: 'Gemini 2.5 Flash', window: 1_048_576 },
  { id: 'llama-3.1-8b', label: 'Llama 3.1 8B', window: 131_072 },
  { id: 'local-4k', label: 'Small local model (4k context)', window: 4_096 },
];

export const DEFAULT_TARGET_ID = 'gpt-4o';

export const WINDOW_FRACTION = { min: 0.75, max: 0.8, default: 0.75 } as const;

/** A preset by id, or a custom window given as a number of tokens. */
export function resolveTarget(target: string | number): ModelTarget | null {
  if (typeof target === 'number') {
    return Number.isFinite(target) && target >= 256
      ? { id: 'custom', label: `Custom (${Math.floor(target)} tokens)`, window: Math.floor(target) }
      : null;
  }
  return MODEL_TARGETS.find((m) => m.id === target) ?? null;
}

/** Tokens the package may use: the window times a fraction clamped to 75-80 %. */
export function packageBudget(window: number, fraction: number = WINDOW_FRACTION.default): number {
  const f = Math.min(WINDOW_FRACTION.max, Math.max(WINDOW_FRACTION.min, fraction));
  return Math.floor(window * f);
}
