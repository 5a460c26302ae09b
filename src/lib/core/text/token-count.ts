/**
 * Token counts for budgets only (DESIGN: "tokens are counted after structural chunking"). Uses the
 * o200k_base encoding of `gpt-tokenizer`: close enough to every current chat model for a budget.
 */
import { countTokens as count } from 'gpt-tokenizer';

// Text from an archive may contain strings such as `<|endoftext|>`: count them as plain text.
const PLAIN = { disallowedSpecial: new Set<string>() };

export function countTokens(text: string): number {
  return text.length === 0 ? 0 : count(text, PLAIN);
}
