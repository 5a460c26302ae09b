import type { LlmBridge, LlmInfo } from '../../core/api/extract-api';
import type { Llm, LlmCallOptions, LlmMessage } from '../../core/api/llm';
import { VaultFailure } from '../../core/errors';
import { withDeadline } from '../../models/llm-deadline';

/**
 * The page's language model as an `Llm` inside a worker. The call goes to the page through a
 * comlink proxy; the deadline and cancellation are kept here too, so a page that stops answering
 * (a closed or frozen tab) fails the call with `llm/timeout` and extraction falls back.
 */
export class RemoteLlm implements Llm {
  readonly id: string;
  readonly kind: LlmInfo['kind'];

  constructor(
    info: LlmInfo,
    private readonly bridge: LlmBridge,
    private readonly options: { defaultTimeoutMs?: number; graceMs?: number } = {},
  ) {
    this.id = info.id;
    this.kind = info.kind;
  }

  complete(messages: readonly LlmMessage[], options: LlmCallOptions): Promise<string> {
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs ?? 120_000;
    return withDeadline(
      async () => {
        const answer = await this.bridge(
          messages.map((m) => ({ role: m.role, content: m.content })),
          { temperature: options.temperature, jsonSchema: options.jsonSchema, maxTokens: options.maxTokens, timeoutMs },
        );
        if (!answer.ok) throw new VaultFailure(answer.error);
        return answer.text;
      },
      // A little longer than the page's own deadline, so the page's clearer error arrives first.
      { timeoutMs: timeoutMs + (this.options.graceMs ?? 5_000), signal: options.signal, label: `The page's model (${this.id})` },
    );
  }
}
