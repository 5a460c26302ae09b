/**
 * A model stage's call under its circuit breaker, and what the trace records of it. The read
 * path's stages (fit-gate, decomposition, intent, reranker) pass a `StageGuard` with their call;
 * `guardCall` asks the breaker first (open: the stage is bypassed at once and says until when),
 * then tells it how the call ended, and records one `StageCall` for the trace and the evaluation.
 * Extraction and summaries call a plain `Llm`: `guardedLlm` wraps one so an open breaker refuses
 * with `llm/unavailable` (their fallback path) and every call's end is counted.
 */
import type { Llm, LlmCallOptions, LlmMessage } from '../api/llm';
import { isVaultError, toVaultError, VaultFailure, vaultError } from '../errors';
import { breakerMessage, type BreakerStatus, type CircuitBreaker, type ModelStage } from './circuit-breaker';

/** How one call of a stage ended: asked and answered, asked and failed, cancelled, or not asked (breaker open). */
export type StageCallOutcome = 'ok' | 'failed' | 'cancelled' | 'bypassed';

export interface StageCall {
  stage: ModelStage;
  outcome: StageCallOutcome;
  /** Time spent in the call (0 when bypassed). */
  ms: number;
  /** Why it failed or was bypassed; null when it answered. */
  reason: string | null;
  /** The breaker after the call: the status line says when an open one retries. */
  breaker: BreakerStatus;
}

export interface StageGuard {
  breaker: CircuitBreaker;
  /** Wall-clock time (ms since epoch) for the breaker's message. */
  now: () => number;
  record?(call: StageCall): void;
}

export type GuardedResult<T> = { admitted: true; value: T } | { admitted: false; message: string; status: BreakerStatus };

export interface CallVerdict {
  outcome: Exclude<StageCallOutcome, 'bypassed'>;
  reason: string | null;
  ms: number;
}

/** Runs `call` when the breaker admits it; `judge` says how it ended (a thrown error is a failure). */
export async function guardCall<T>(
  guard: StageGuard | undefined,
  call: () => Promise<T>,
  judge: (value: T) => CallVerdict,
  clock: () => number = () => Date.now(),
): Promise<GuardedResult<T>> {
  if (!guard) return { admitted: true, value: await call() };
  const { breaker } = guard;
  const admission = breaker.admit();
  if (!admission.allowed) {
    const message = breakerMessage(admission.status, guard.now()) ?? `the ${breaker.stage} model is bypassed`;
    guard.record?.({ stage: breaker.stage, outcome: 'bypassed', ms: 0, reason: message, breaker: admission.status });
    return { admitted: false, message, status: admission.status };
  }
  const started = clock();
  let verdict: CallVerdict;
  let value: T;
  try {
    value = await call();
    verdict = judge(value);
  } catch (thrown) {
    const error = toVaultError(thrown, 'llm/failed');
    const cancelled = error.code === 'llm/cancelled' || error.code === 'recall/cancelled';
    settle(breaker, cancelled ? 'cancelled' : 'failed', error.message);
    guard.record?.({
      stage: breaker.stage,
      outcome: cancelled ? 'cancelled' : 'failed',
      ms: clock() - started,
      reason: error.message,
      breaker: breaker.status(),
    });
    throw thrown;
  }
  settle(breaker, verdict.outcome, verdict.reason);
  guard.record?.({ stage: breaker.stage, outcome: verdict.outcome, ms: verdict.ms, reason: verdict.reason, breaker: breaker.status() });
  return { admitted: true, value };
}

function settle(breaker: CircuitBreaker, outcome: CallVerdict['outcome'], reason: string | null): void {
  if (outcome === 'ok') breaker.succeeded();
  else if (outcome === 'failed') breaker.failed(reason ?? 'failed');
  else breaker.released();
}

/**
 * A model whose calls go through `breaker`: refused at once with `llm/unavailable` while it is
 * open (extraction and summaries then take their rule-based path and say why), and each call's
 * end counted (a cancellation counts as nothing).
 */
export function guardedLlm(llm: Llm, guard: StageGuard): Llm {
  return {
    id: llm.id,
    kind: llm.kind,
    async complete(messages: readonly LlmMessage[], options: LlmCallOptions): Promise<string> {
      const result = await guardCall(
        guard,
        () =>
          llm.complete(messages, options).catch((thrown: unknown) => {
            // However the adapter words it, a call the caller aborted is a cancellation, not a failure.
            if (options.signal?.aborted) throw new VaultFailure(vaultError('llm/cancelled', 'The call was cancelled.'));
            throw thrown;
          }),
        () => ({ outcome: 'ok', reason: null, ms: 0 }),
      );
      if (result.admitted) return result.value;
      throw new VaultFailure(
        vaultError('llm/unavailable', `${result.message[0]!.toUpperCase()}${result.message.slice(1)}.`, {
          breaker: result.status,
        }),
      );
    },
  };
}

/** True when an error says a call was refused by an open breaker (not a failure of the model). */
export function isBreakerRefusal(error: unknown): boolean {
  if (!isVaultError(error) || error.code !== 'llm/unavailable') return false;
  return typeof error.detail === 'object' && error.detail !== null && 'breaker' in error.detail;
}
