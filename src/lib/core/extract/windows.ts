import { countTokens } from '../text/token-count';
import { proseSentences } from '../text/sentences';
import type { ExtractionMessage } from './units';

/**
 * Windows over a long conversation. A window holds whole messages up to a token budget; a single
 * message over the budget is cut at sentence boundaries into parts, each part its own window and
 * citing the same message id. Each window may repeat the previous message as read-only context
 * (a user's "yes, do that" needs the proposal it answers). Tokens are counted by core/text/token-count
 * (o200k): an estimate of the local model's count, so the budget keeps a margin.
 */
export interface WindowMessage extends ExtractionMessage {
  /** Short label used in the prompt ("m1"), mapped back to `id` when parsing. */
  label: string;
  /** True for the repeated previous message: it may be read but not cited. */
  context: boolean;
  /** Set when the message was cut: which part of how many this is. */
  part: { index: number; of: number } | null;
}

export interface ExtractionWindow {
  index: number;
  messages: WindowMessage[];
  tokenCount: number;
}

export interface WindowOptions {
  maxTokens?: number;
  /** Repeat the message before the window as context. Default true. */
  withContext?: boolean;
  countTokens?: (text: string) => number;
}

export const DEFAULT_WINDOW_TOKENS = 1500;

const PER_MESSAGE_OVERHEAD = 6;

function splitOversized(message: ExtractionMessage, budget: number, count: (t: string) => number): string[] {
  const parts: string[] = [];
  let current = '';
  for (const sentence of proseSentences(message.text)) {
    const next = current ? `${current} ${sentence}` : sentence;
    if (current && count(next) > budget) {
      parts.push(current);
      current = sentence;
    } else {
      current = next;
    }
  }
  if (current) parts.push(current);
  return parts.length > 0 ? parts : [message.text];
}

export function buildWindows(messages: readonly ExtractionMessage[], options: WindowOptions = {}): ExtractionWindow[] {
  const budget = options.maxTokens ?? DEFAULT_WINDOW_TOKENS;
  const count = options.countTokens ?? countTokens;
  const withContext = options.withContext ?? true;
  const windows: ExtractionWindow[] = [];
  let current: { messages: ExtractionMessage[]; parts: WindowMessage['part'][]; tokens: number } = {
    messages: [],
    parts: [],
    tokens: 0,
  };
  let previous: ExtractionMessage | null = null;
  let contextFor: ExtractionMessage | null = null;

  const flush = (): void => {
    if (current.messages.length === 0) return;
    const labelled: WindowMessage[] = [];
    if (withContext && contextFor) labelled.push({ ...contextFor, label: 'c1', context: true, part: null });
    current.messages.forEach((m, i) => labelled.push({ ...m, label: `m${i + 1}`, context: false, part: current.parts[i] ?? null }));
    windows.push({ index: windows.length, messages: labelled, tokenCount: current.tokens });
    current = { messages: [], parts: [], tokens: 0 };
  };

  for (const message of messages) {
    if (!message.text.trim()) continue;
    const tokens = count(message.text) + PER_MESSAGE_OVERHEAD;
    if (tokens > budget) {
      flush();
      const pieces = splitOversized(message, budget - PER_MESSAGE_OVERHEAD, count);
      pieces.forEach((text, index) => {
        contextFor = index === 0 ? previous : null;
        current = { messages: [{ ...message, text }], parts: [{ index, of: pieces.length }], tokens: count(text) + PER_MESSAGE_OVERHEAD };
        flush();
      });
    } else {
      if (current.tokens + tokens > budget) flush();
      if (current.messages.length === 0) contextFor = previous;
      current.messages.push(message);
      current.parts.push(null);
      current.tokens += tokens;
    }
    previous = message;
  }
  flush();
  return windows;
}
