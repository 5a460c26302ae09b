import { VaultFailure, vaultError, type VaultError } from '../core/errors';

/** Every pipeline stage runs at temperature 0 - 0.1 (DESIGN: "temperature 0-0.1"). */
export const MAX_PIPELINE_TEMPERATURE = 0.1;

export function clampTemperature(temperature: number): number {
  if (!Number.isFinite(temperature)) return 0;
  return Math.min(MAX_PIPELINE_TEMPERATURE, Math.max(0, temperature));
}

export const DEFAULT_LLM_TIMEOUT_MS = 120_000;

export interface DeadlineOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called once when the call is given up (timeout or abort), e.g. to interrupt generation. */
  onGiveUp?: (reason: 'timeout' | 'cancelled') => void;
  /** What the call is, for error messages ("the model", "http://127.0.0.1:8080"). */
  label?: string;
}

export function cancelledError(label = 'the model'): VaultError {
  return vaultError('llm/cancelled', `The request to ${label} was cancelled.`);
}

export function timeoutError(label: string, timeoutMs: number): VaultError {
  return vaultError('llm/timeout', `${label} did not answer within ${Math.round(timeoutMs / 1000)} s.`, {
    timeoutMs,
  });
}

/**
 * Runs `work` with a timeout and an abort signal. The inner signal handed to `work` aborts when
 * either fires, so fetch-based work stops its request; `onGiveUp` lets engine-based work interrupt
 * generation. The returned promise settles as soon as the call is given up, even if `work` ignores
 * its signal.
 */
export function withDeadline<T>(work: (signal: AbortSignal) => Promise<T>, options: DeadlineOptions): Promise<T> {
  const label = options.label ?? 'The model';
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  const outer = options.signal;
  if (outer?.aborted) return Promise.reject(new VaultFailure(cancelledError(label)));

  const inner = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (): void => {
      settled = true;
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    };
    const giveUp = (reason: 'timeout' | 'cancelled'): void => {
      if (settled) return;
      finish();
      inner.abort();
      options.onGiveUp?.(reason);
      reject(new VaultFailure(reason === 'timeout' ? timeoutError(label, timeoutMs) : cancelledError(label)));
    };
    const onAbort = (): void => giveUp('cancelled');
    const timer = setTimeout(() => giveUp('timeout'), timeoutMs);
    outer?.addEventListener('abort', onAbort, { once: true });

    work(inner.signal).then(
      (value) => {
        if (settled) return;
        finish();
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        finish();
        reject(error instanceof Error ? error : new VaultFailure(vaultError('llm/failed', String(error))));
      },
    );
  });
}
