import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Llm, LlmCallOptions, LlmMessage } from '../../src/lib/core/api/llm';
import { VaultFailure, vaultError, type ErrorCode } from '../../src/lib/core/errors';
import { withDeadline } from '../../src/lib/models/llm-deadline';

/**
 * The one fake `Llm` of the tests: it plays a script, one step per call, and records every call
 * (with the stage it was routed to) so a test can read the prompt and options it was given. Like
 * the real adapters it honours the call's `timeoutMs` and abort signal (models/llm-deadline).
 *
 * A step is an answer (`'text'`, `{ output }`, `{ outputJson }`), an error (an `Error`, or
 * `{ error: { code, message } }` as the recorded fixtures write it), `HANG` (no answer: the call
 * ends by its timeout or abort), or a function of the call. Recorded scripts live in
 * tests/fixtures/llm/ (`recordedLlm(name)`).
 *
 * Staged: `stagedLlm(stageOf, scripts)` keeps one script per prompt (extraction, summary, gate...);
 * each call goes to the script of `stageOf(messages)`. A script is a list of steps, played once,
 * or a function that answers every call of its stage.
 */
export const HANG = { hang: true } as const;

export type ScriptFn = (messages: readonly LlmMessage[], options: LlmCallOptions) => string | Promise<string>;

/** A step as tests/fixtures/llm/*.json record it. */
export type RecordedStep = { output: string } | { outputJson: unknown } | { error: { code: ErrorCode; message: string } } | typeof HANG;

export type ScriptStep = RecordedStep | string | Error | ScriptFn;

export type Script = readonly ScriptStep[] | ScriptFn;

export interface ScriptedCall {
  messages: readonly LlmMessage[];
  options: LlmCallOptions;
  stage: string;
}

const ONLY = 'script';

export class ScriptedLlm implements Llm {
  readonly kind = 'fake' as const;
  readonly calls: ScriptedCall[] = [];
  private readonly played = new Map<string, number>();

  constructor(
    script: Script | Readonly<Record<string, Script>>,
    readonly id = 'fake:scripted',
    private readonly stageOf: (messages: readonly LlmMessage[]) => string = () => ONLY,
  ) {
    this.scripts =
      Array.isArray(script) || typeof script === 'function' ? { [ONLY]: script as Script } : (script as Record<string, Script>);
  }

  private readonly scripts: Readonly<Record<string, Script>>;

  /** The calls routed to `stage`. */
  callsOf(stage: string): ScriptedCall[] {
    return this.calls.filter((c) => c.stage === stage);
  }

  complete(messages: readonly LlmMessage[], options: LlmCallOptions): Promise<string> {
    const stage = this.stageOf(messages);
    this.calls.push({ messages, options, stage });
    const step = this.nextStep(stage);
    return withDeadline((signal) => play(step, messages, { ...options, signal }, stage), {
      timeoutMs: options.timeoutMs ?? 5_000,
      signal: options.signal,
      label: 'The scripted model',
    });
  }

  private nextStep(stage: string): ScriptStep | undefined {
    const script = this.scripts[stage];
    if (typeof script === 'function') return script;
    const at = this.played.get(stage) ?? 0;
    this.played.set(stage, at + 1);
    return script?.[at];
  }
}

async function play(
  step: ScriptStep | undefined,
  messages: readonly LlmMessage[],
  options: LlmCallOptions,
  stage: string,
): Promise<string> {
  if (step === undefined) throw new VaultFailure(vaultError('llm/failed', `The script has no more answers (${stage}).`));
  if (typeof step === 'string') return step;
  if (typeof step === 'function') return step(messages, options);
  if (step instanceof Error) throw step;
  if ('hang' in step) return new Promise<string>(() => undefined);
  if ('error' in step) throw new VaultFailure(vaultError(step.error.code, step.error.message));
  return 'output' in step ? step.output : JSON.stringify(step.outputJson);
}

/** A fake model that plays `steps` in order. */
export function scriptedLlm(steps: Script, id?: string): ScriptedLlm {
  return new ScriptedLlm(steps, id);
}

/** A fake model with one script per stage; `stageOf` names the stage of a call from its messages. */
export function stagedLlm(
  stageOf: (messages: readonly LlmMessage[]) => string,
  scripts: Readonly<Record<string, Script>>,
  id?: string,
): ScriptedLlm {
  return new ScriptedLlm(scripts, id, stageOf);
}

const FIXTURES = fileURLToPath(new URL('../fixtures/llm/', import.meta.url));

/** Steps recorded in tests/fixtures/llm/<name>.json (`{ "description": ..., "steps": [...] }`). */
export function loadLlmScript(name: string): RecordedStep[] {
  const file = JSON.parse(readFileSync(`${FIXTURES}${name}.json`, 'utf8')) as { steps: RecordedStep[] };
  return file.steps;
}

/** A fake model playing the recorded script tests/fixtures/llm/<name>.json. */
export function recordedLlm(name: string): ScriptedLlm {
  return new ScriptedLlm(loadLlmScript(name), `fake:${name}`);
}
