/**
 * The one token counter (DESIGN: "tokens are counted after structural chunking"): chunk sizes,
 * extraction windows and the recall package's budget all count here. Uses the o200k_base encoding
 * of `gpt-tokenizer` (GPT-4o / GPT-5): for other model families an estimate, close enough for a
 * budget (the 75-80 % window target leaves the margin).
 */
import { countTokens as countO200k } from 'gpt-tokenizer';

export type TokenCounter = (text: string) => number;

// Text from an archive may contain strings such as `<|endoftext|>`: count them as plain text, so
// counting never throws (the library's default rejects them with "Disallowed special token").
const PLAIN = { disallowedSpecial: new Set<string>() };

export const countTokens: TokenCounter = (text) => (text.length === 0 ? 0 : countO200k(text, PLAIN));
