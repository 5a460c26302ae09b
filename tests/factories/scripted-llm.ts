import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Llm, LlmCallOptions, LlmMessage } from '../../src/lib/core/api/llm';
import { VaultFailure, vaultError, type ErrorCode } from '../../src/lib/core/errors';
import { withDeadline } from '../../src/lib/models/llm-deadline';

/**
 * A fake `Llm` that plays a script of recorded answers, one step per call: an answer (text or
 * JSON), an error, or a hang that only ends by the call's timeout or abort signal. Every call is
 * recorded so a test can read the prompt and options it was given.
 */
export type ScriptStep = { output: string } | { outputJson: unknown } | { error: { code: ErrorCode; message: string } } | { hang: true };

export interface ScriptedCall {
  messages: readonly LlmMessage[];
  options: LlmCallOptions;
}

export class ScriptedLlm implements Llm {
  readonly kind = 'fake' as const;
  readonly calls: ScriptedCall[] = [];
  private next = 0;

  constructor(
    private readonly steps: readonly ScriptStep[],
    readonly id = 'fake:scripted',
  ) {}

  get remaining(): number {
    return this.steps.length - this.next;
  }

  complete(messages: readonly LlmMessage[], options: LlmCallOptions): Promise<string> {
    this.calls.push({ messages, options });
    const step = this.steps[this.next];
    this.next += 1;
    return withDeadline(
      () => {
        if (!step) return Promise.reject(new VaultFailure(vaultError('llm/failed', 'The script has no more answers.')));
        if ('hang' in step) return new Promise<string>(() => undefined);
        if ('error' in step) return Promise.reject(new VaultFailure(vaultError(step.error.code, step.error.message)));
        return Promise.resolve('output' in step ? step.output : JSON.stringify(step.outputJson));
      },
      { timeoutMs: options.timeoutMs ?? 5_000, signal: options.signal, label: 'The scripted model' },
    );
  }
}

const FIXTURES = fileURLToPath(new URL('../fixtures/llm/', import.meta.url));

/** Steps recorded in tests/fixtures/llm/<name>.json (`{ "description": ..., "steps": [...] }`). */
export function loadLlmScript(name: string): ScriptStep[] {
  const file = JSON.parse(readFileSync(`${FIXTURES}${name}.json`, 'utf8')) as { steps: ScriptStep[] };
  return file.steps;
}

export function scriptedLlm(name: string): ScriptedLlm {
  return new ScriptedLlm(loadLlmScript(name), `fake:${name}`);
}
