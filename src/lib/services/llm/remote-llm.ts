import type { Llm, LlmCallOptions, LlmMessage } from '../../core/api/llm';
import type { LlmInfo, LlmPort } from '../../core/api/llm-port';
import { VaultFailure } from '../../core/errors';
import { withDeadline } from '../../models/llm-deadline';

/** A port's methods may answer through comlink (promises) or directly (tests). */
type PortLike = {
  [K in keyof LlmPort]: (...args: Parameters<LlmPort[K]>) => ReturnType<LlmPort[K]> | Promise<Awaited<ReturnType<LlmPort[K]>>>;
};

/**
 * A model lent by another thread, as an `Llm` here (the index worker's recall and extraction use
 * the same one). The deadline and cancellation are kept on this side too: when the signal fires (a
 * newer query, the gate's deadline) this side stops waiting at once and asks the lender to abort by
 * call id; a lender that stops answering (a closed tab) fails the call with `llm/timeout`.
 */
export class RemoteLlm implements Llm {
  readonly id: string;
  readonly kind: LlmInfo['kind'];
  private calls = 0;

  constructor(
    info: LlmInfo,
    private readonly port: PortLike,
    private readonly options: { defaultTimeoutMs?: number; graceMs?: number } = {},
  ) {
    this.id = info.id;
    this.kind = info.kind;
  }

  complete(messages: readonly LlmMessage[], options: LlmCallOptions): Promise<string> {
    const { signal, ...rest } = options;
    const timeoutMs = rest.timeoutMs ?? this.options.defaultTimeoutMs ?? 120_000;
    const callId = ++this.calls;
    return withDeadline(
      async () => {
        const answer = await this.port.complete(
          messages.map((m) => ({ role: m.role, content: m.content })),
          { ...rest, timeoutMs },
          callId,
        );
        if (!answer.ok) throw new VaultFailure(answer.error);
        return answer.text;
      },
      {
        // A little longer than the lender's own deadline, so its clearer error arrives first.
        timeoutMs: timeoutMs + (this.options.graceMs ?? 5_000),
        ...(signal ? { signal } : {}),
        label: `The model ${this.id}`,
        onGiveUp: () => void Promise.resolve(this.port.cancel(callId)).catch(() => undefined),
      },
    );
  }
}
