import type { Llm } from '../core/api/llm';
import type { LlmPort } from '../core/api/llm-port';
import { plainError } from '../core/errors';

/**
 * Serves a model on a port (see core/api/llm-port.ts): the page serves the OpenAI-compatible
 * endpoint, the LLM worker serves WebLLM. Calls are aborted by id; failures come back as results
 * with their `llm/...` code intact.
 */
export function serveLlmPort(llm: Llm): LlmPort {
  const calls = new Map<number, AbortController>();
  return {
    async complete(messages, options, callId) {
      const controller = new AbortController();
      calls.set(callId, controller);
      try {
        return { ok: true, text: await llm.complete(messages, { ...options, signal: controller.signal }) };
      } catch (thrown) {
        return { ok: false, error: plainError(thrown) };
      } finally {
        calls.delete(callId);
      }
    },
    cancel(callId) {
      calls.get(callId)?.abort();
    },
  };
}
