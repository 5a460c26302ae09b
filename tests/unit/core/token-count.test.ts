import { countTokens as unguarded } from 'gpt-tokenizer';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import * as specialTokens from 'gpt-tokenizer/specialTokens';
import { describe, expect, it } from 'vitest';
import { countTokens, loadTokenCounter } from '../../../src/lib/core/text/token-count';

// The app loads the token counter on demand (core/text/token-count.ts); these tests call core directly.
await loadTokenCounter();

/** Every special token string gpt-tokenizer knows (`<|endoftext|>`, `<|im_start|>`, harmony's ...). */
const SPECIAL: string[] = Object.values(specialTokens);

describe('countTokens', () => {
  it('knows the special tokens it is guarded against (the list is not empty)', () => {
    expect(SPECIAL).toContain('<|endoftext|>');
    expect(SPECIAL.length).toBeGreaterThanOrEqual(16);
    // Without the guard the library throws on them: that is what the guard is for.
    expect(() => unguarded('a chat that says <|endoftext|>')).toThrow(/special token/i);
  });

  it.each(SPECIAL)('never throws on %s and counts it as plain text', (token) => {
    const text = `An archived chat quoted ${token} in the middle of a sentence.`;
    expect(() => countTokens(text)).not.toThrow();
    expect(countTokens(token)).toBe(encode(token, { disallowedSpecial: new Set() }).length);
    // As plain text a marker is several tokens; as a special token it would be exactly one.
    expect(countTokens(token)).toBeGreaterThan(1);
  });

  it('counts with o200k_base, the encoding the package budget uses', () => {
    const text = 'Σύνταξη of the 日本庭園 budget: 1500 tokens per window, emoji 🙂 included.';
    expect(countTokens(text)).toBe(encode(text).length);
    expect(countTokens('')).toBe(0);
  });
});
