/** The stem scanner finds exactly the stems a substring search of the folded text finds. */
import { describe, expect, it } from 'vitest';
import { stemScanner } from '../../../src/lib/core/safety/stem-scan';

const fold = (text: string) => text.replace(/[^\S\n]+/gu, ' ');
const found = (stems: readonly string[], indexes: Set<number>) => [...indexes].map((i) => stems[i]).sort();
/** What the scanner must find: every stem that is a substring of the folded text. */
const naive = (stems: readonly string[], text: string) => stems.filter((s) => fold(text).includes(s)).sort();

describe('stemScanner', () => {
  const stems = ['he', 'she', 'his', 'hers', 'you are now', 'no ', ' mode', 'ö', 'yönerge', '<|', '忽略'];
  const scanner = stemScanner(stems);

  it('finds overlapping stems and stems inside others', () => {
    expect(found(stems, scanner.scan('ushers'))).toEqual(['he', 'hers', 'she']);
  });

  it('reads white space runs other than newlines as one space', () => {
    expect(found(stems, scanner.scan('you\t are \u00a0now in god  mode'))).toEqual(['you are now', ' mode'].sort());
    expect(found(stems, scanner.scan('you are\nnow'))).toEqual([]);
  });

  it('reads across lines when asked, as lines read once joined', () => {
    expect(found(stems, scanner.scan('you are\nnow', new Set(), true))).toEqual(['you are now']);
    expect(found(stems, scanner.scan('no\n\nway', new Set(), true))).toEqual(['no ']);
  });

  it('finds non-ASCII stems', () => {
    expect(found(stems, scanner.scan('die yönerge und 忽略'))).toEqual(['yönerge', 'ö', '忽略'].sort());
  });

  it('gives each line its own stems', () => {
    const text = 'she\n\nno\tmode\n<|im_start|>';
    const lines = text.split('\n').map(() => new Set<number>());
    scanner.scanLines(text, lines);
    expect(lines.map((line) => found(stems, line))).toEqual([['he', 'she'], [], ['no ', ' mode'].sort(), ['<|']]);
  });

  it('agrees with a substring search on random text', () => {
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const alphabet = [
      'h',
      'e',
      's',
      'r',
      'i',
      ' ',
      '\t',
      '\n',
      'y',
      'o',
      'u',
      'a',
      'n',
      'w',
      'm',
      'd',
      'ö',
      'g',
      '<',
      '|',
      'x',
      '忽',
      '略',
      '\u00a0',
    ];
    for (let run = 0; run < 500; run++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 60) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      expect(found(stems, scanner.scan(text))).toEqual(naive(stems, text));
    }
  });

  it('refuses an empty stem or one holding a newline', () => {
    expect(() => stemScanner(['ok', ''])).toThrow(/non-empty/);
    expect(() => stemScanner(['a\nb'])).toThrow(/newline/);
  });
});
