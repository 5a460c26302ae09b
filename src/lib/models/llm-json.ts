import { vaultError, type VaultError } from '../core/errors';

/**
 * Pulls one JSON value out of a model's answer. Constrained decoding gives bare JSON, but a model
 * that was only *asked* for JSON often wraps it in a code fence or a sentence; both are accepted
 * here so the core parser sees plain JSON text.
 */
export function extractJsonText(answer: string): { ok: true; text: string } | { ok: false; error: VaultError } {
  const trimmed = answer.trim();
  const candidates: string[] = [trimmed];
  const fence = /```(?:json)?\s*([\s\S]*?)```/iu.exec(trimmed);
  if (fence?.[1]) candidates.push(fence[1].trim());
  const start = trimmed.search(/[{[]/u);
  const end = Math.max(trimmed.lastIndexOf('}'), trimmed.lastIndexOf(']'));
  if (start >= 0 && end > start) candidates.push(trimmed.slice(start, end + 1));
  for (const text of candidates) {
    try {
      JSON.parse(text);
      return { ok: true, text };
    } catch {
      // try the next reading
    }
  }
  return {
    ok: false,
    error: vaultError('llm/invalid-output', 'The model answered with text that is not valid JSON.', {
      excerpt: trimmed.slice(0, 200),
    }),
  };
}
