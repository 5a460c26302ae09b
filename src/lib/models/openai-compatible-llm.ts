import type { Llm, LlmCallOptions, LlmMessage } from '../core/api/llm';
import { isVaultError, VaultFailure, vaultError, type VaultError } from '../core/errors';
import { clampTemperature, DEFAULT_LLM_TIMEOUT_MS, withDeadline } from './llm-deadline';
import { extractJsonText } from '../core/llm-json';

/**
 * `Llm` on an OpenAI-compatible server on the person's own machine (llama.cpp server, Ollama,
 * LM Studio, vLLM...). Off by default: the UI must say that text goes to this URL.
 *
 * Structured output: `response_format: { type: 'json_schema' }` first. A server that rejects it
 * (HTTP 400/422, or 404/501 naming the field) is asked again with the schema written into the
 * system message, and the client remembers that mode for later calls.
 */
export type StructuredMode = 'json_schema' | 'prompt';

export interface OpenAiCompatibleOptions {
  /** e.g. `http://127.0.0.1:8080` or `http://localhost:11434/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  defaultTimeoutMs?: number;
  /** Start in this mode ('prompt' for servers known to lack json_schema). */
  structuredMode?: StructuredMode;
  fetch?: typeof fetch;
}

/** `<base>/v1/chat/completions`, whether or not the configured URL already ends in /v1. */
export function chatCompletionsUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/u, '');
  return `${trimmed.replace(/\/v1$/u, '')}/v1/chat/completions`;
}

export function schemaInstruction(schema: Record<string, unknown>): string {
  return 'Answer with one JSON value only, no prose and no code fence. It must match this JSON Schema:\n' + JSON.stringify(schema);
}

interface ChatResponse {
  choices?: { message?: { content?: string | null }; finish_reason?: string | null }[];
}

export class OpenAiCompatibleLlm implements Llm {
  readonly kind = 'openai-compatible' as const;
  readonly id: string;
  private mode: StructuredMode;
  private readonly url: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.id = `openai-compatible:${options.model}`;
    this.mode = options.structuredMode ?? 'json_schema';
    this.url = chatCompletionsUrl(options.baseUrl);
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** The structured-output mode the next call will use. */
  get structuredMode(): StructuredMode {
    return this.mode;
  }

  async complete(messages: readonly LlmMessage[], options: LlmCallOptions): Promise<string> {
    const first = await this.attempt(messages, options, this.mode);
    if (first.ok) return first.text;
    if (first.schemaRejected && this.mode === 'json_schema' && options.jsonSchema) {
      this.mode = 'prompt';
      const second = await this.attempt(messages, options, 'prompt');
      if (second.ok) return second.text;
      throw new VaultFailure(second.error);
    }
    throw new VaultFailure(first.error);
  }

  private body(messages: readonly LlmMessage[], options: LlmCallOptions, mode: StructuredMode): string {
    const schema = options.jsonSchema;
    let outgoing = messages.map((m) => ({ role: m.role, content: m.content }));
    if (schema && mode === 'prompt') {
      const instruction = schemaInstruction(schema);
      const system = outgoing.find((m) => m.role === 'system');
      outgoing = system
        ? outgoing.map((m) => (m === system ? { ...m, content: `${m.content}\n\n${instruction}` } : m))
        : [{ role: 'system', content: instruction }, ...outgoing];
    }
    return JSON.stringify({
      model: this.options.model,
      messages: outgoing,
      temperature: clampTemperature(options.temperature),
      stream: false,
      ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
      ...(schema && mode === 'json_schema'
        ? { response_format: { type: 'json_schema', json_schema: { name: 'engram_output', strict: true, schema } } }
        : {}),
    });
  }

  private async attempt(
    messages: readonly LlmMessage[],
    options: LlmCallOptions,
    mode: StructuredMode,
  ): Promise<{ ok: true; text: string } | { ok: false; error: VaultError; schemaRejected: boolean }> {
    try {
      const text = await withDeadline((signal) => this.post(this.body(messages, options, mode), signal, options), {
        timeoutMs: options.timeoutMs ?? this.options.defaultTimeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
        signal: options.signal,
        label: `The model server at ${this.url}`,
      });
      return { ok: true, text };
    } catch (thrown) {
      const error = isVaultError(thrown) ? thrown : vaultError('llm/failed', String(thrown));
      const detail = error.detail as { schemaRejected?: boolean } | undefined;
      return { ok: false, error, schemaRejected: detail?.schemaRejected === true };
    }
  }

  private async post(body: string, signal: AbortSignal, options: LlmCallOptions): Promise<string> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let response: Response;
    try {
      response = await this.fetchFn(this.url, { method: 'POST', headers, body, signal });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new VaultFailure(
        vaultError(
          'llm/unreachable',
          `Could not reach the model server at ${this.url}. Is it running, and does it allow requests from this page (CORS)?`,
          { url: this.url, cause: String(error) },
        ),
      );
    }
    const raw = await response.text();
    if (!response.ok) throw new VaultFailure(httpError(this.url, response.status, raw, body));
    return answerText(this.url, raw, options);
  }
}

function httpError(url: string, status: number, raw: string, requestBody: string): VaultError {
  const excerpt = raw.slice(0, 300);
  const sentSchema = requestBody.includes('"response_format"');
  const namesField = /response_format|json_schema|grammar|schema/iu.test(raw);
  const schemaRejected = sentSchema && (status === 400 || status === 422 || ((status === 404 || status === 501) && namesField));
  const detail = { url, status, excerpt, schemaRejected };
  if (status === 401 || status === 403) {
    return vaultError('llm/failed', `The model server at ${url} refused the request (HTTP ${status}): check the API key.`, detail);
  }
  if (status === 404 && !schemaRejected) {
    return vaultError('llm/unavailable', `No OpenAI-compatible chat endpoint or model at ${url} (HTTP 404).`, detail);
  }
  return vaultError('llm/failed', `The model server at ${url} answered HTTP ${status}.`, detail);
}

function answerText(url: string, raw: string, options: LlmCallOptions): string {
  let parsed: ChatResponse;
  try {
    parsed = JSON.parse(raw) as ChatResponse;
  } catch {
    throw new VaultFailure(
      vaultError('llm/invalid-output', `The server at ${url} did not answer with JSON.`, { excerpt: raw.slice(0, 200) }),
    );
  }
  const choice = parsed.choices?.[0];
  const content = choice?.message?.content;
  if (typeof content !== 'string' || content.length === 0) {
    throw new VaultFailure(
      vaultError('llm/invalid-output', `The server at ${url} returned no message content.`, { excerpt: raw.slice(0, 200) }),
    );
  }
  if (!options.jsonSchema) return content;
  const json = extractJsonText(content);
  if (json.ok) return json.text;
  const truncated = choice?.finish_reason === 'length';
  throw new VaultFailure({
    ...json.error,
    message: truncated ? 'The model ran out of output tokens before finishing its JSON answer.' : json.error.message,
  });
}
