import { describe, expect, it } from 'vitest';
import { SNIPPET_WIDEN, matchRanges, queryTerms, snippetOf, splitByRanges } from '../../../src/lib/core/conversations/highlight';

const slices = (text: string, ranges: { start: number; end: number }[]) => ranges.map((r) => text.slice(r.start, r.end));

describe('matchRanges', () => {
  it('marks every word whose stem is a query term, at its exact offsets, whatever its case or form', () => {
    const text = 'Pruning the maple: I prune it in winter; PRUNED branches heal.';
    const ranges = matchRanges(text, queryTerms('prune maples'));
    expect(slices(text, ranges)).toEqual(['Pruning', 'maple', 'prune', 'PRUNED']);
    expect(ranges[0]).toEqual({ start: 0, end: 7 });
  });

  it('never marks stop words, even when the query holds them', () => {
    const text = 'What is the soil for the moss?';
    expect(slices(text, matchRanges(text, queryTerms('the soil for moss')))).toEqual(['soil', 'moss']);
  });

  it('keeps offsets exact around apostrophes and non-Latin letters', () => {
    const text = 'Ça va? Don’t over-water the Kyōto moss; it’s moss.';
    const ranges = matchRanges(text, queryTerms('moss kyōto'));
    expect(slices(text, ranges)).toEqual(['Kyōto', 'moss', 'moss']);
  });

  it('marks nothing for a query of stop words only or an empty text', () => {
    expect(matchRanges('the and of', queryTerms('the'))).toEqual([]);
    expect(matchRanges('', queryTerms('moss'))).toEqual([]);
  });
});

describe('snippetOf', () => {
  const long = `${'filler words go here '.repeat(20)}the acidic moss wants shade and the moss wants water ${'more filler text '.repeat(20)}`;

  it('returns a short text whole with its ranges', () => {
    const text = 'moss wants shade';
    const ranges = matchRanges(text, queryTerms('moss'));
    expect(snippetOf(text, ranges)).toEqual({ text, highlights: ranges, start: 0, end: text.length, more: false });
  });

  it('cuts a window around the densest matches, on word boundaries, with highlights relative to the window', () => {
    const ranges = matchRanges(long, queryTerms('moss shade'));
    expect(ranges).toHaveLength(3);
    const s = snippetOf(long, ranges, 80);
    expect(s.text.length).toBeLessThan(100);
    expect(s.start).toBeGreaterThan(0);
    expect(s.more).toBe(true);
    expect(long.slice(s.start, s.end)).toBe(s.text);
    expect(slices(s.text, s.highlights)).toEqual(['moss', 'shade', 'moss']);
    expect(/\s/u.test(long[s.start - 1]!)).toBe(true);
  });

  it('widens to a word boundary by a bounded amount: a long URL, base64 or CJK run is cut, not shown whole', () => {
    const url = `see https://example.com/${'a1'.repeat(150)}/moss/${'b2'.repeat(150)} end`;
    const s = snippetOf(url, matchRanges(url, queryTerms('moss')), 80);
    expect(s.text.length).toBeLessThanOrEqual(80 + 2 * SNIPPET_WIDEN);
    expect(s.start).toBeGreaterThan(0);
    expect(s.more).toBe(true);
    expect(slices(s.text, s.highlights)).toEqual(['moss']);
    expect(url.slice(s.start, s.end)).toBe(s.text);

    const base64 = 'QUJD'.repeat(500);
    const head = snippetOf(base64, [], 80);
    expect(head.text.length).toBe(80 + SNIPPET_WIDEN);
    expect(head.more).toBe(true);
    const cjk = `${'苔'.repeat(300)} moss ${'石'.repeat(300)}`;
    expect(snippetOf(cjk, matchRanges(cjk, queryTerms('moss')), 60).text.length).toBeLessThanOrEqual(60 + 2 * SNIPPET_WIDEN);
  });

  it('never cuts a highlighted word at the edge of the window', () => {
    // A marked run longer than the window plus both widenings: the window grows to hold it whole.
    const text = `${'x '.repeat(100)}${'moss'.repeat(15)} ${'y '.repeat(100)}`;
    const s = snippetOf(text, [{ start: 200, end: 260 }], 10);
    expect(slices(s.text, s.highlights)).toEqual(['moss'.repeat(15)]);
  });

  it('starts at the beginning when nothing matched', () => {
    const s = snippetOf(long, [], 50);
    expect(s.start).toBe(0);
    expect(s.highlights).toEqual([]);
  });
});

describe('splitByRanges', () => {
  it('cuts a text into plain and marked pieces that join back to the text', () => {
    const text = 'moss and more moss';
    const pieces = splitByRanges(text, matchRanges(text, queryTerms('moss')));
    expect(pieces).toEqual([
      { text: 'moss', hit: true },
      { text: ' and more ', hit: false },
      { text: 'moss', hit: true },
    ]);
    expect(pieces.map((p) => p.text).join('')).toBe(text);
  });

  it('ignores overlapping or out-of-range ranges rather than duplicating text', () => {
    const pieces = splitByRanges('abcdef', [
      { start: 0, end: 3 },
      { start: 2, end: 4 },
      { start: 5, end: 99 },
    ]);
    expect(pieces.map((p) => p.text).join('')).toBe('abcdef');
  });
});
