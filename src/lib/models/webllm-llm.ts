import type { Llm, LlmCallOptions, LlmMessage } from '../core/api/llm';
import { VaultFailure, vaultError } from '../core/errors';
import { clampTemperature, DEFAULT_LLM_TIMEOUT_MS, withDeadline } from './llm-deadline';
import { extractJsonText } from '../core/llm-json';
import { catalogueModel } from './webllm-catalogue';
import { webLlmError } from './webllm-errors';

/** The part of WebLLM's `MLCEngineInterface` this adapter uses (a `WebWorkerMLCEngine` in the app, a fake in tests). */
export interface WebLlmEngineLike {
  chat: {
    completions: {
      create(request: WebLlmRequest): Promise<WebLlmCompletion>;
    };
  };
  interruptGenerate(): void;
  unload(): Promise<void>;
}

export interface WebLlmRequest {
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  temperature: number;
  seed: number;
  max_tokens?: number;
  stream: false;
  response_format?: { type: 'json_object'; schema: string };
  extra_body?: { enable_thinking?: boolean };
}

export interface WebLlmCompletion {
  choices: { message: { content: string | null }; finish_reason: string | null }[];
}

export interface WebLlmOptions {
  defaultTimeoutMs?: number;
  /** Fixed seed: with temperature <= 0.1 a rerun gives the same answer. */
  seed?: number;
}

/**
 * `Llm` on a WebLLM engine. Calls are queued: the engine runs one generation at a time, and
 * `interruptGenerate()` stops whatever is running, so a cancelled call must be the running one.
 */
export class WebLlm implements Llm {
  readonly kind = 'webllm' as const;
  readonly id: string;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly thinking: boolean;

  constructor(
    private readonly engine: WebLlmEngineLike,
    readonly modelId: string,
    private readonly options: WebLlmOptions = {},
  ) {
    this.id = `webllm:${modelId}`;
    this.thinking = catalogueModel(modelId)?.thinking ?? false;
  }

  complete(messages: readonly LlmMessage[], options: LlmCallOptions): Promise<string> {
    const run = this.queue.then(
      () => this.run(messages, options),
      () => this.run(messages, options),
    );
    // The next call waits for this one to settle, including a generation that was interrupted.
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(messages: readonly LlmMessage[], options: LlmCallOptions): Promise<string> {
    if (options.signal?.aborted) throw new VaultFailure(vaultError('llm/cancelled', 'The request was cancelled.'));
    const request: WebLlmRequest = {
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      temperature: clampTemperature(options.temperature),
      seed: this.options.seed ?? 7,
      stream: false,
      ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
      ...(options.jsonSchema ? { response_format: { type: 'json_object', schema: JSON.stringify(options.jsonSchema) } } : {}),
      ...(this.thinking ? { extra_body: { enable_thinking: false } } : {}),
    };
    const completion = await withDeadline(
      async () => {
        try {
          return await this.engine.chat.completions.create(request);
        } catch (error) {
          throw new VaultFailure(webLlmError(error, this.modelId));
        }
      },
      {
        timeoutMs: options.timeoutMs ?? this.options.defaultTimeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
        signal: options.signal,
        label: `The in-browser model (${this.modelId})`,
        onGiveUp: () => this.engine.interruptGenerate(),
      },
    );
    return this.answerText(completion, options);
  }

  private answerText(completion: WebLlmCompletion, options: LlmCallOptions): string {
    const choice = completion.choices[0];
    const content = choice?.message.content ?? '';
    if (choice?.finish_reason === 'abort') {
      throw new VaultFailure(vaultError('llm/cancelled', 'The generation was interrupted.'));
    }
    if (!options.jsonSchema) return content;
    const json = extractJsonText(content);
    if (json.ok) return json.text;
    const truncated = choice?.finish_reason === 'length';
    throw new VaultFailure(
      vaultError(
        'llm/invalid-output',
        truncated ? 'The model ran out of output tokens before finishing its JSON answer.' : json.error.message,
        { modelId: this.modelId, finishReason: choice?.finish_reason ?? null, excerpt: content.slice(0, 200) },
      ),
    );
  }

  /** Frees the GPU memory held by the model. */
  async dispose(): Promise<void> {
    await this.engine.unload();
  }
}
