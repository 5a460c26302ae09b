/**
 * JSON from a language model, in one place: how an answer's JSON text is found (the model adapters
 * in `models/` use it on every structured answer) and one structured call as the read path makes
 * it: JSON-schema constrained, temperature 0, bounded by a timeout, validated with zod. The call
 * never throws: every failure comes back as a reason, so each caller can fall back (decomposer,
 * intent) or fail open (fit-gate) and say why.
 */
import { z } from 'zod';
import type { Llm, LlmMessage } from './api/llm';
import { isVaultError, toVaultError, vaultError, type VaultError } from './errors';
import type { BreakerStatus } from './breaker/circuit-breaker';
import { guardCall, type StageGuard } from './breaker/stage-guard';

/** `breaker-open`: the stage's circuit breaker bypassed the model without calling it. */
export type LlmFailure = 'no-llm' | 'timeout' | 'invalid-output' | 'error' | 'cancelled' | 'breaker-open';

export type LlmJsonOutcome<T> =
  | { ok: true; value: T; ms: number }
  | { ok: false; reason: LlmFailure; message: string; ms: number; error?: VaultError; breaker?: BreakerStatus };

export interface LlmJsonOptions {
  timeoutMs: number;
  maxTokens: number;
  signal?: AbortSignal;
  /** Monotonic clock in ms (performance.now in the app); only used to report how long the call took. */
  clock?: () => number;
  /** The stage's circuit breaker: an open one bypasses the call; every call's end is recorded. */
  guard?: StageGuard;
}

/** The JSON Schema handed to the model: zod's export without the `$schema` key some engines reject. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
}

/**
 * Pulls one JSON value out of a model's answer. Constrained decoding gives bare JSON, but a model
 * that was only *asked* for JSON often wraps it in a code fence or a sentence; both are accepted
 * here so the parser sees plain JSON text.
 */
export function extractJsonText(answer: string): { ok: true; text: string } | { ok: false; error: VaultError } {
  const trimmed = answer.trim();
  const candidates: string[] = [trimmed];
  const fence = /```(?:json)?\s*([\s\S]*?)```/iu.exec(trimmed);
  if (fence?.[1]) candidates.push(fence[1].trim());
  const start = trimmed.search(/[{[]/u);
  const end = Math.max(trimmed.lastIndexOf('}'), trimmed.lastIndexOf(']'));
  if (start >= 0 && end > start) candidates.push(trimmed.slice(start, end + 1));
  for (const text of candidates) {
    try {
      JSON.parse(text);
      return { ok: true, text };
    } catch {
      // try the next reading
    }
  }
  return {
    ok: false,
    error: vaultError('llm/invalid-output', 'The model answered with text that is not valid JSON.', {
      excerpt: trimmed.slice(0, 200),
    }),
  };
}

export function parseJsonAnswer<T>(text: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; message: string } {
  const json = extractJsonText(text);
  if (!json.ok) return { ok: false, message: 'the answer is not JSON' };
  const parsed = schema.safeParse(JSON.parse(json.text));
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    message: `the answer does not match the schema (${issue?.path.join('.') || 'root'}: ${issue?.message ?? 'invalid'})`,
  };
}

function classify(thrown: unknown, timedOut: boolean, cancelled: boolean): { reason: LlmFailure; error: VaultError } {
  const error = toVaultError(thrown, 'llm/failed');
  if (cancelled) return { reason: 'cancelled', error };
  if (timedOut || (isVaultError(thrown) && thrown.code === 'llm/timeout')) return { reason: 'timeout', error };
  if (isVaultError(thrown) && thrown.code === 'llm/invalid-output') return { reason: 'invalid-output', error };
  return { reason: 'error', error };
}

/**
 * One structured call; under `options.guard` the stage's breaker is asked first and told how the
 * call ended (timeouts, errors and invalid answers are failures; a cancellation is neither).
 */
export async function completeJson<T>(
  llm: Llm | null | undefined,
  messages: readonly LlmMessage[],
  schema: z.ZodType<T>,
  options: LlmJsonOptions,
): Promise<LlmJsonOutcome<T>> {
  if (!llm || !options.guard) return callJson(llm, messages, schema, options);
  const guarded = await guardCall(
    options.guard,
    () => callJson(llm, messages, schema, options),
    (outcome) => ({
      outcome: outcome.ok ? 'ok' : outcome.reason === 'cancelled' ? 'cancelled' : 'failed',
      reason: outcome.ok ? null : outcome.message,
      ms: outcome.ms,
    }),
  );
  if (guarded.admitted) return guarded.value;
  return { ok: false, reason: 'breaker-open', message: guarded.message, ms: 0, breaker: guarded.status };
}

async function callJson<T>(
  llm: Llm | null | undefined,
  messages: readonly LlmMessage[],
  schema: z.ZodType<T>,
  options: LlmJsonOptions,
): Promise<LlmJsonOutcome<T>> {
  const clock = options.clock ?? (() => Date.now());
  const started = clock();
  if (!llm) return { ok: false, reason: 'no-llm', message: 'no language model is available', ms: 0 };
  const controller = new AbortController();
  // Stop waiting at once when the caller gives up, even if the model ignores its signal.
  let cancel: (reason: Error) => void = () => undefined;
  const cancelled = new Promise<never>((_, reject) => (cancel = reject));
  const onAbort = () => {
    controller.abort(options.signal?.reason);
    cancel(new Error('cancelled'));
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
      reject(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
  });
  try {
    if (options.signal?.aborted) throw new Error('cancelled');
    const call = llm.complete(messages, {
      temperature: 0,
      jsonSchema: jsonSchemaOf(schema),
      maxTokens: options.maxTokens,
      timeoutMs: options.timeoutMs,
      signal: controller.signal,
    });
    const text = await Promise.race([call, timeout, cancelled]);
    const parsed = parseJsonAnswer(text, schema);
    if (parsed.ok) return { ok: true, value: parsed.value, ms: clock() - started };
    return { ok: false, reason: 'invalid-output', message: parsed.message, ms: clock() - started };
  } catch (thrown) {
    const { reason, error } = classify(thrown, timedOut, options.signal?.aborted === true);
    const message = reason === 'timeout' ? `no answer within ${options.timeoutMs} ms` : error.message;
    return { ok: false, reason, message, ms: clock() - started, error };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
