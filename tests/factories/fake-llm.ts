/**
 * A scripted fake Llm (test double): answers each call with the next step of its script and records
 * every call. A step is a recorded answer, a thrown error, `HANG` (never answers; rejects only when
 * the call's signal aborts) or a function of the call.
 */
import type { Llm, LlmCallOptions, LlmMessage } from '../../src/lib/core/api/llm';
import { VaultFailure, vaultError } from '../../src/lib/core/errors';

export const HANG = Symbol('hang');

export type FakeStep =
  string | Error | typeof HANG | ((messages: readonly LlmMessage[], options: LlmCallOptions) => string | Promise<string>);

export interface ScriptedLlm extends Llm {
  readonly calls: { messages: readonly LlmMessage[]; options: LlmCallOptions }[];
}

export function scriptedLlm(steps: readonly FakeStep[], id = 'fake-llm'): ScriptedLlm {
  const calls: ScriptedLlm['calls'] = [];
  let next = 0;
  return {
    id,
    kind: 'fake',
    calls,
    async complete(messages, options) {
      calls.push({ messages, options });
      const step = steps[next];
      next += 1;
      if (step === undefined) throw new VaultFailure(vaultError('llm/failed', `fake LLM script exhausted after ${steps.length} calls`));
      if (step instanceof Error) throw step;
      if (step === HANG) {
        return new Promise<string>((_, reject) => {
          options.signal?.addEventListener('abort', () => reject(new VaultFailure(vaultError('llm/timeout', 'aborted'))), { once: true });
        });
      }
      return typeof step === 'function' ? step(messages, options) : step;
    },
  };
}
