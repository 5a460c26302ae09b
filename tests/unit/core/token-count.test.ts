import { countTokens as unguarded } from 'gpt-tokenizer';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import * as specialTokens from 'gpt-tokenizer/specialTokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countTokens, countTokensRemembered, loadTokenCounter, tokenSafeLines } from '../../../src/lib/core/text/token-count';

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

describe('countTokensRemembered', () => {
  // Pieces chosen to meet at line starts in every way the encoding's pre-tokenizer could join them:
  // punctuation before a break (".\n" runs on into "/" and further breaks), spaces around breaks,
  // \r\n, breaks that are white space but not line breaks to the pattern (U+2028), slashes, marks,
  // digits, capitals, contractions, emoji and a lone surrogate.
  const piece = fc.constantFrom(
    'word',
    'Word',
    'WORD',
    "don't",
    "'s",
    ' ',
    '  ',
    '\t',
    '\n',
    '\n\n',
    '\r\n',
    '\r',
    '\u2028',
    '\u00a0',
    '.',
    '...',
    ':',
    '/',
    '//',
    '<<<memory ref="msg_1">>>',
    '<<<end memory>>>',
    '- ',
    '# ',
    '1',
    '123456',
    '3.5',
    'é',
    'e\u0301',
    '日本',
    '🙂',
    '\ud800',
    '<|endoftext|>',
    '`code`',
    '**bold**',
    '(',
    ')',
    '\u3000',
  );
  const text = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(''));

  it('counts exactly what countTokens counts, and so do the lines it cuts', () => {
    fc.assert(
      fc.property(text, (t) => {
        const whole = countTokens(t);
        expect(tokenSafeLines(t).join('')).toBe(t);
        expect(tokenSafeLines(t).reduce((sum, line) => sum + countTokens(line), 0)).toBe(whole);
        const atDelimiters = tokenSafeLines(t, (code) => code === 60);
        expect(atDelimiters.join('')).toBe(t);
        expect(atDelimiters.reduce((sum, piece) => sum + countTokens(piece), 0)).toBe(whole);
        // Twice: the second count reads the remembered lines.
        expect(countTokensRemembered(t)).toBe(whole);
        expect(countTokensRemembered(t)).toBe(whole);
      }),
      { numRuns: 2000 },
    );
  });

  it('cuts only where a line opens with something other than white space or a slash', () => {
    expect(tokenSafeLines('a.\nb\n c\n/d\n\ne')).toEqual(['a.\n', 'b\n c\n/d\n\n', 'e']);
    expect(tokenSafeLines('')).toEqual(['']);
    // A narrower test cuts at fewer line starts, never at one the default refuses.
    expect(tokenSafeLines('a\n<b\nc\n</d', (code) => code === 60)).toEqual(['a\n', '<b\nc\n', '</d']);
    expect(tokenSafeLines('a\n c', () => true)).toEqual(['a\n c']);
  });
});
