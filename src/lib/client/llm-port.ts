import type { Llm } from '../core/api/llm';
import type { RecallLlmPort } from '../core/api/recall-api';

/**
 * The page's model as a worker may call it through comlink (wrap the result in Comlink.proxy): the
 * worker cannot send an AbortSignal, so each call comes with an id and `cancel(id)` aborts it here.
 */
export function llmPort(llm: Llm): RecallLlmPort {
  const calls = new Map<number, AbortController>();
  return {
    id: llm.id,
    kind: llm.kind,
    async complete(messages, options, callId) {
      const controller = new AbortController();
      if (callId !== undefined) calls.set(callId, controller);
      try {
        return await llm.complete(messages, { ...options, signal: controller.signal });
      } finally {
        if (callId !== undefined) calls.delete(callId);
      }
    },
    cancel(callId) {
      calls.get(callId)?.abort();
    },
  };
}
