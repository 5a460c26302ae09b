import type { Llm } from '../api/llm';
import { isVaultError, toVaultError, vaultError, type VaultError } from '../errors';
import { isNoise } from './noise';
import { summaryJsonSchema, summaryOutput } from './schema';
import { proseSentences } from '../text/sentences';
import { wordCount, type ExtractionMessage } from './units';
import { contentWords } from './words';

/**
 * The per-session summary (the middle tier of the three-tier compression): 200-400 words, by
 * the LLM when one is available, else extractive: the session's most central sentences, in order.
 * A session shorter than 200 words gets a summary no longer than itself, never padding.
 */
export const SUMMARY_MIN_WORDS = 200;
export const SUMMARY_MAX_WORDS = 400;

export interface SessionSummary {
  text: string;
  words: number;
  method: 'llm' | 'extractive';
  llmId: string | null;
  fallbackReason: VaultError | null;
}

function sessionWords(messages: readonly ExtractionMessage[]): number {
  return messages.reduce((sum, m) => sum + wordCount(m.text), 0);
}

export function summaryBounds(messages: readonly ExtractionMessage[]): { min: number; max: number } {
  return { min: Math.min(SUMMARY_MIN_WORDS, Math.floor(sessionWords(messages) * 0.8)), max: SUMMARY_MAX_WORDS };
}

/** Sentences scored by the mean session frequency of their content words; picked best-first, printed in order. */
export function extractiveSummary(messages: readonly ExtractionMessage[]): string {
  const { min, max } = summaryBounds(messages);
  const sentences = messages.flatMap((m) =>
    proseSentences(m.text)
      .filter((s) => !isNoise(s, m.role))
      .map((text) => ({ text, role: m.role })),
  );
  const frequency = new Map<string, number>();
  for (const s of sentences) for (const w of contentWords(s.text)) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const scored = sentences.map((s, index) => {
    const words = contentWords(s.text);
    const score = words.length === 0 ? 0 : words.reduce((sum, w) => sum + (frequency.get(w) ?? 0), 0) / Math.sqrt(words.length);
    return { ...s, index, score, words: wordCount(s.text) };
  });
  const chosen = new Set<number>();
  let total = 0;
  for (const s of [...scored].sort((a, b) => b.score - a.score || a.index - b.index)) {
    if (total >= Math.max(min, 1)) break;
    if (total + s.words > max) continue;
    chosen.add(s.index);
    total += s.words;
  }
  return scored
    .filter((s) => chosen.has(s.index))
    .map((s) => s.text)
    .join(' ');
}

function sessionText(messages: readonly ExtractionMessage[], maxWords: number): string {
  const lines: string[] = [];
  let words = 0;
  for (const m of messages) {
    const n = wordCount(m.text);
    if (words + n > maxWords) {
      lines.push('[... the rest of the session is cut for length ...]');
      break;
    }
    lines.push(`${m.role}: ${m.text}`);
    words += n;
  }
  return lines.join('\n');
}

export interface SummaryOptions {
  llm?: Llm | null;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Words of the session sent to the model (its context window is small). */
  maxInputWords?: number;
}

export async function summarizeSession(messages: readonly ExtractionMessage[], options: SummaryOptions = {}): Promise<SessionSummary> {
  const extractive = (reason: VaultError | null): SessionSummary => {
    const text = extractiveSummary(messages);
    return { text, words: wordCount(text), method: 'extractive', llmId: null, fallbackReason: reason };
  };
  if (!options.llm) return extractive(vaultError('llm/unavailable', 'No language model is configured: extractive summary.'));
  const { min, max } = summaryBounds(messages);
  try {
    const answer = await options.llm.complete(
      [
        {
          role: 'system',
          content: `Summarize the conversation session in ${min}-${max} words of plain prose: what was discussed, what the user decided, what stays open. State only what the session says. Answer with JSON only: {"summary": "..."}.`,
        },
        { role: 'user', content: sessionText(messages, options.maxInputWords ?? 2000) },
      ],
      { temperature: 0, jsonSchema: summaryJsonSchema, maxTokens: 900, signal: options.signal, timeoutMs: options.timeoutMs },
    );
    const parsed = summaryOutput.safeParse(JSON.parse(answer));
    if (!parsed.success) return extractive(vaultError('llm/invalid-output', 'The summary answer does not match its schema.'));
    const words = wordCount(parsed.data.summary);
    if (words < min || words > max) {
      return extractive(vaultError('llm/invalid-output', `The model's summary has ${words} words, outside ${min}-${max}.`));
    }
    return { text: parsed.data.summary.trim(), words, method: 'llm', llmId: options.llm.id, fallbackReason: null };
  } catch (thrown) {
    const error = isVaultError(thrown) ? thrown : toVaultError(thrown, 'llm/invalid-output');
    if (error.code === 'llm/cancelled') throw thrown;
    return extractive(error);
  }
}
