/**
 * A language model as the pipeline uses it (extraction, fit-gate, decomposition). Implementations in
 * src/lib/models: WebLLM in a worker, an OpenAI-compatible endpoint on the person's machine, and a
 * scripted fake in tests. Failures throw a VaultError with an `llm/...` code.
 */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LlmCallOptions {
  /** 0 - 0.1 for every pipeline stage. */
  temperature: number;
  /** JSON Schema the answer must match (structured output); the answer is then a JSON string. */
  jsonSchema?: Record<string, unknown>;
  maxTokens?: number;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface Llm {
  readonly id: string;
  readonly kind: 'webllm' | 'openai-compatible' | 'fake';
  /** The text of the model's answer. */
  complete(messages: readonly LlmMessage[], options: LlmCallOptions): Promise<string>;
}
