/**
 * Token counting with gpt-tokenizer (o200k_base, the GPT-4o / GPT-5 encoding). For other model
 * families it is an estimate; the 75-80 % window target leaves the margin.
 */
import { countTokens as countO200k } from 'gpt-tokenizer';

export type TokenCounter = (text: string) => number;

/** Memory text may contain `<|endoftext|>` and the like: count them as text, never throw. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

export const countTokens: TokenCounter = (text) => (text.length === 0 ? 0 : countO200k(text, AS_TEXT));
