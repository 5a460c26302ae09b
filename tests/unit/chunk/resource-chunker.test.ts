import { loadTokenCounter } from '../../../src/lib/core/text/token-count';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkResource } from '../../../src/lib/core/chunk/resource-chunker';
import { referencePath, textArb, wordCount } from './arbitraries';

// The app loads the token counter on demand (core/text/token-count.ts); these tests call core directly.
await loadTokenCounter();

const doc = (text: string) => ({ id: 'r1', title: 'Garden notes', text, createdAt: null });

describe('chunkResource', () => {
  it('makes one chunk per heading level with its path', () => {
    const text = '# Garden\nA small dry garden.\n\n## Stones\nThree granite stones.\n\n## Water\nA basin.\n### Pump\nA solar pump.';
    const chunks = chunkResource(doc(text));
    expect(chunks.map((c) => c.headingPath)).toEqual([['Garden'], ['Garden', 'Stones'], ['Garden', 'Water'], ['Garden', 'Water', 'Pump']]);
    expect(chunks[0]!.text).toBe('# Garden\nA small dry garden.');
    expect(chunks[3]!.contextText).toBe('Garden notes\nGarden > Water > Pump\n### Pump\nA solar pump.');
    expect(chunks.every((c) => c.messageIds.length === 0 && c.parentType === 'resource')).toBe(true);
  });

  it('flags a level with more than four bullets, and bullets with no governing idea', () => {
    const text = [
      '## Plants',
      'These plants suit shade.',
      '- moss',
      '- fern',
      '- hosta',
      '- maple',
      '- azalea',
      '## Tools',
      '- rake',
      '- shears',
      '## Paths',
      'Stepping stones, spaced for a slow walk.',
      '- granite',
      '  - nested does not count',
      '- slate',
    ].join('\n');
    const flags = chunkResource(doc(text)).map((c) => [c.headingPath.join('/'), c.flags]);
    expect(flags).toEqual([
      ['Plants', ['too-many-bullets']],
      ['Tools', ['no-governing-idea']],
      ['Paths', []],
    ]);
  });

  it('tiles the document, never splits a sentence, and labels heading paths', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 8, max: 80 }), ({ text, atoms }, maxTokens) => {
        const chunks = chunkResource(doc(text), { maxTokens, minTokens: 0, maxBullets: 4 }, wordCount);
        const spans = chunks.map((c) => c.spans[0]!);
        expect(spans[0]!.start).toBe(0);
        expect(spans[spans.length - 1]!.end).toBe(text.length);
        spans.slice(1).forEach((s, i) => expect(s.start).toBe(spans[i]!.end));
        for (const atom of atoms) expect(spans.some((s) => s.start <= atom.start && atom.end <= s.end)).toBe(true);
        chunks.forEach((c) => expect(c.headingPath).toEqual(referencePath(atoms, text.length, c.spans[0]!.start, c.spans[0]!.end)));
        expect(chunkResource(doc(text), { maxTokens, minTokens: 0, maxBullets: 4 }, wordCount)).toEqual(chunks);
      }),
    );
  });
});
