/**
 * Hints written by the language model (issue 12, criterion 4: "the LLM when present"): for each
 * extracted unit of a conversation, up to HINTS_PER_DOC questions a person might later ask that the
 * unit answers. The extraction job asks once per batch of units and stores the questions on the
 * candidate note (`NoteRecord.hints`); the hint index reads them in place of the rule hints
 * (services/index/hint-view.ts). Any failure (no model, an open breaker, a timeout, an answer that
 * does not parse) leaves the units without model hints, and the rules stand in.
 */
import { z } from 'zod';
import type { Llm } from '../api/llm';
import { isVaultError, toVaultError, vaultError, type VaultError } from '../errors';
import { HINTS_PER_DOC } from './hint-limits';

/** Units asked about in one call (a small model's context window, and its answer's length). */
export const HINT_BATCH = 12;
/** A question longer than this is not a question a person types. */
const MAX_QUESTION_CHARS = 200;

const hintsJsonSchema: Record<string, unknown> = {
  type: 'object',
  properties: {
    hints: {
      type: 'array',
      items: {
        type: 'object',
        properties: { unit: { type: 'integer' }, questions: { type: 'array', items: { type: 'string' } } },
        required: ['unit', 'questions'],
        additionalProperties: false,
      },
    },
  },
  required: ['hints'],
  additionalProperties: false,
};

const hintsOutput = z.object({ hints: z.array(z.object({ unit: z.number().int(), questions: z.array(z.string()) })) });

export interface LlmHintResult {
  /** Per unit, in the order given: its questions (empty when the model gave none). */
  hints: string[][];
  llmId: string | null;
  /** Why there are none, when the model was not asked or its answer was unusable. */
  fallbackReason: VaultError | null;
}

export interface LlmHintOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Keeps what a person could type: trimmed, one line, at most MAX_QUESTION_CHARS, distinct, at most HINTS_PER_DOC. */
function clean(questions: readonly string[]): string[] {
  const out: string[] = [];
  for (const q of questions) {
    const line = q.replace(/\s+/gu, ' ').trim();
    if (line.length < 8 || line.length > MAX_QUESTION_CHARS || out.includes(line)) continue;
    out.push(line);
    if (out.length >= HINTS_PER_DOC) break;
  }
  return out;
}

async function batch(
  units: readonly { text: string; category: string }[],
  llm: Llm,
  options: LlmHintOptions,
): Promise<string[][] | VaultError> {
  const listed = units.map((u, i) => `${i + 1}. [${u.category}] ${u.text}`).join('\n');
  const answer = await llm.complete(
    [
      {
        role: 'system',
        content:
          `For each numbered memory, write up to ${HINTS_PER_DOC} short questions a person might ask weeks later that this memory answers. ` +
          "Use the words a person would type, not the memory's own wording where a paraphrase is natural. Ask only what the memory answers. " +
          'Answer with JSON only: {"hints": [{"unit": 1, "questions": ["..."]}]}.',
      },
      { role: 'user', content: listed },
    ],
    { temperature: 0, jsonSchema: hintsJsonSchema, maxTokens: 120 * units.length, signal: options.signal, timeoutMs: options.timeoutMs },
  );
  const parsed = hintsOutput.safeParse(JSON.parse(answer));
  if (!parsed.success) return vaultError('llm/invalid-output', 'The hints answer does not match its schema.');
  const out: string[][] = units.map(() => []);
  for (const entry of parsed.data.hints) {
    if (entry.unit < 1 || entry.unit > units.length) continue;
    out[entry.unit - 1] = clean([...out[entry.unit - 1]!, ...entry.questions]);
  }
  return out;
}

/**
 * The model's questions for each unit, in batches of HINT_BATCH. A batch that fails stops the run:
 * the units asked so far keep their questions, the rest get none, and the reason is returned.
 * Cancellation is thrown, as every model stage does.
 */
export async function llmHints(
  units: readonly { text: string; category: string }[],
  llm: Llm | null,
  options: LlmHintOptions = {},
): Promise<LlmHintResult> {
  const hints: string[][] = units.map(() => []);
  if (!llm) return { hints, llmId: null, fallbackReason: vaultError('llm/unavailable', 'No language model is configured: rule hints.') };
  for (let at = 0; at < units.length; at += HINT_BATCH) {
    let got: string[][] | VaultError;
    try {
      got = await batch(units.slice(at, at + HINT_BATCH), llm, options);
    } catch (thrown) {
      const error = isVaultError(thrown) ? thrown : toVaultError(thrown, 'llm/invalid-output');
      if (error.code === 'llm/cancelled') throw thrown;
      got = error;
    }
    if (!Array.isArray(got)) return { hints, llmId: llm.id, fallbackReason: got };
    got.forEach((q, i) => (hints[at + i] = q));
  }
  return { hints, llmId: llm.id, fallbackReason: null };
}
