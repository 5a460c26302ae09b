/**
 * The prompt's intent at the subject-domain altitude: what field the request belongs to and what the
 * person is after. The fit-gate judges candidates against it; the screen shows it and lets the person
 * edit it, so recall takes it as an input and only derives it when none is given.
 */
import { z } from 'zod';
import type { Llm, LlmMessage } from '../api/llm';
import type { StageGuard } from '../breaker/stage-guard';
import { completeJson } from '../llm-json';
import { keyPhrases, unframe } from './text-features';
import type { IntentStatement } from './types';

export const MAX_INTENT_CHARS = 300;

/** Without a model: the unframed question, with its key phrases named as the subject. */
export function deriveIntentDeterministic(prompt: string): string {
  const subject = unframe(prompt);
  const phrases = keyPhrases(subject, 3);
  const about = phrases.length > 0 ? phrases.join('; ') : subject;
  const text = `Memories about ${about}, as asked: "${subject}"`;
  return text.length <= MAX_INTENT_CHARS ? text : `${text.slice(0, MAX_INTENT_CHARS - 1)}…`;
}

const intentSchema = z.object({ intent: z.string().min(3).max(MAX_INTENT_CHARS) });

const SYSTEM = [
  'State the intent of a request to a personal memory vault in one sentence of at most 30 words.',
  'Name the subject domain first (the field the request belongs to, e.g. "Landscape design"), then what the person is after.',
  'Stay at the altitude of the field: a memory from another field is irrelevant even if it shares words.',
  'Do not answer the request. Answer with JSON only.',
].join('\n');

export function intentMessages(prompt: string): LlmMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Request:\n${prompt}` },
  ];
}

export interface IntentOptions {
  /** An intent the person typed or edited: used as is. */
  given?: string | null;
  llm?: Llm | null;
  timeoutMs?: number;
  signal?: AbortSignal;
  clock?: () => number;
  /** The stage's circuit breaker: open, the model-free path runs and says until when. */
  guard?: StageGuard;
}

export async function deriveIntent(prompt: string, options: IntentOptions = {}): Promise<IntentStatement> {
  const given = options.given?.trim();
  if (given) return { text: given.slice(0, MAX_INTENT_CHARS), source: 'given', fallbackReason: null };
  const fallback = (reason: string | null): IntentStatement => ({
    text: deriveIntentDeterministic(prompt),
    source: 'deterministic',
    fallbackReason: reason,
  });
  if (!options.llm) return fallback(null);
  const outcome = await completeJson(options.llm, intentMessages(prompt), intentSchema, {
    timeoutMs: options.timeoutMs ?? 6_000,
    maxTokens: 120,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.guard ? { guard: options.guard } : {}),
  });
  if (!outcome.ok) return fallback(`LLM intent did not run (${outcome.reason}: ${outcome.message}); derived it without a model`);
  return { text: outcome.value.intent.trim(), source: 'llm', fallbackReason: null };
}
