/**
 * How a language model that lives in one thread (WebLLM in the LLM worker, or the person's
 * OpenAI-compatible server reached from the page) is lent to another (the index worker, where
 * recall's decomposition and fit-gate and the extraction job run). One port per model, handed over
 * once as a MessagePort: comlink cannot carry an AbortSignal or an Error's code, so each call has
 * an id (`cancel(id)` aborts it) and the answer is a result, never a thrown error.
 */
import type { VaultError } from '../errors';
import type { LlmCallOptions, LlmMessage } from './llm';

export interface LlmInfo {
  id: string;
  kind: 'webllm' | 'openai-compatible' | 'fake';
}

/** The model the person chose: a WebLLM model in this browser, or an OpenAI-compatible server on their own machine. */
export type LlmChoice = { kind: 'webllm'; modelId: string } | { kind: 'openai-compatible'; baseUrl: string; model: string };

export type LlmAnswer = { ok: true; text: string } | { ok: false; error: VaultError };

export interface LlmPort {
  complete(messages: readonly LlmMessage[], options: Omit<LlmCallOptions, 'signal'>, callId: number): Promise<LlmAnswer>;
  cancel(callId: number): void;
}

/** The message that hands the LLM worker a port to serve its model on (`{ type, port, modelId }`). */
export const LLM_PORT_MESSAGE = 'engram/llm-port';
