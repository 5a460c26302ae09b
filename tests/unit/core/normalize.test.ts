import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash, hashBasis, normalizeMultiline, normalizeText, sha256Hex } from '../../../src/lib/core/text/normalize';

/** The rule as DESIGN.md states it, written the slow, obvious way. */
const reference = (text: string) =>
  text
    .normalize('NFC')
    .replace(/\s+/gu, ' ')
    .trim()
    .toLowerCase()
    .replace(/[\p{P}\s]+$/u, '');

describe('normalization and the content hash', () => {
  it('hashBasis equals the stated rule on arbitrary text (ASCII, Unicode, surrogates)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'grapheme' }),
          fc.string({ unit: 'binary' }),
          fc.string({ unit: fc.constantFrom('a', ' ', '.', '!', '…', '。', '\n', 'é', 'e\u0301', '\ud83d', '\ude00') }),
        ),
        (text) => {
          expect(hashBasis(text)).toBe(reference(text));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('equal content modulo case, spacing and trailing punctuation shares a hash', async () => {
    expect(await contentHash('  Prune maples in LATE winter!!  ')).toBe(await contentHash('prune maples in late\nwinter'));
    expect(await contentHash('Prune maples in late winter')).not.toBe(await contentHash('Prune maples in early winter'));
    expect(await contentHash('caf\u00e9')).toBe(await contentHash('cafe\u0301'));
  });

  it('sha256Hex matches the FIPS 180-2 test vectors', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('sha256Hex hashes UTF-8, short texts and long ones (past the reused buffer) alike, one after another', async () => {
    const { createHash } = await import('node:crypto');
    const reference = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
    const long = 'ünïcödé 忽略 🙂 '.repeat(30_000); // 420k UTF-16 units
    // A lone surrogate becomes U+FFFD in UTF-8, as Buffer and TextEncoder both write it.
    for (const text of ['é', long, 'abc', long.slice(0, 1000), 'x\ud800y', '']) expect(await sha256Hex(text)).toBe(reference(text));
  });

  it('storage text keeps lines in multiline mode and collapses them otherwise', () => {
    expect(normalizeText(' a \n\n b ')).toBe('a b');
    expect(normalizeMultiline('a  \r\n\r\n\r\n\r\nb\t\n')).toBe('a\n\nb');
  });
});
