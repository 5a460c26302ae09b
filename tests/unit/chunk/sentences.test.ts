import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatSentences, splitSentences } from '../../../src/lib/core/text/sentences';
import { textArb } from './arbitraries';

const texts = (input: string) => splitSentences(input).map((s) => s.text);

describe('splitSentences', () => {
  it('splits on terminal punctuation followed by whitespace', () => {
    expect(texts('It rained. We stayed in! Did you? Yes.')).toEqual(['It rained.', 'We stayed in!', 'Did you?', 'Yes.']);
  });

  it('keeps abbreviations, initials, decimals and URLs inside the sentence', () => {
    expect(texts('Dr. Smith paid $3.50 at example.com/a.b today. J. K. Rowling wrote it, e.g. in the U.S. market. Done.')).toEqual([
      'Dr. Smith paid $3.50 at example.com/a.b today.',
      'J. K. Rowling wrote it, e.g. in the U.S. market.',
      'Done.',
    ]);
    expect(texts('See https://example.com/docs/v1.2/index.html for more. Then go.')).toEqual([
      'See https://example.com/docs/v1.2/index.html for more.',
      'Then go.',
    ]);
  });

  it('treats a fenced code block as one unit, whatever it contains', () => {
    const input = 'Run this.\n\n```ts\nconst a = 1. b;\n# not a heading\n\nx.y();\n```\nAfter. Done.';
    const out = splitSentences(input);
    expect(out.map((s) => s.kind)).toEqual(['sentence', 'code', 'sentence', 'sentence']);
    expect(out[1]!.text).toBe('```ts\nconst a = 1. b;\n# not a heading\n\nx.y();\n```');
  });

  it('ends units at headings, list items and blank lines', () => {
    expect(texts('# Title\nBody text\n- one\n- two\n\nNext para')).toEqual(['# Title', 'Body text', '- one', '- two', 'Next para']);
  });

  it("a numbered list item's marker is not a sentence of its own, in prose and in chat text", () => {
    expect(texts('Options:\n1. Grafana Loki, self-hosted\n2. A hosted service. It is cheap.')).toEqual([
      'Options:',
      '1. Grafana Loki, self-hosted',
      '2. A hosted service.',
      'It is cheap.',
    ]);
    expect(chatSentences('The usual options are:\n1. another fixed tariff,\n2. a tracker')).toEqual([
      { text: 'The usual options are:', listItem: false, quoted: false },
      { text: 'another fixed tariff,', listItem: true, quoted: false },
      { text: 'a tracker', listItem: true, quoted: false },
    ]);
    // Lettered items ("A. ...", "b) ...") are list items too; an initial inside a line stays one.
    expect(chatSentences('Two options:\nA. Boiling water, once a month\nb) An enzyme cleaner')).toEqual([
      { text: 'Two options:', listItem: false, quoted: false },
      { text: 'Boiling water, once a month', listItem: true, quoted: false },
      { text: 'An enzyme cleaner', listItem: true, quoted: false },
    ]);
    expect(texts('Ask J. K. Rowling.')).toEqual(['Ask J. K. Rowling.']);
    // Every sentence of a quote line is quoted, not only the first; the line after it is not.
    expect(chatSentences("> I'd lean to the coast. Hastings is easy.\n\nagreed, hastings it is.").map((x) => x.quoted)).toEqual([
      true,
      true,
      false,
    ]);
    // A number closing a sentence still ends it.
    expect(texts('We need 2. Then we go.')).toEqual(['We need 2.', 'Then we go.']);
  });

  it('keeps closing quotes and brackets with their sentence', () => {
    expect(texts('He said "stop." Then left. (It was late.) Fine.')).toEqual(['He said "stop."', 'Then left.', '(It was late.)', 'Fine.']);
  });

  it('returns offsets that index the input, in order, without overlap', () => {
    fc.assert(
      fc.property(textArb, ({ text }) => {
        let last = 0;
        for (const s of splitSentences(text)) {
          expect(text.slice(s.start, s.end)).toBe(s.text);
          expect(s.start).toBeGreaterThanOrEqual(last);
          last = s.end;
        }
      }),
    );
  });

  it('never cuts inside a generated sentence or code block', () => {
    fc.assert(
      fc.property(textArb, ({ text, atoms }) => {
        const spans = splitSentences(text);
        for (const atom of atoms) {
          expect(spans.some((s) => s.start <= atom.start && atom.end <= s.end)).toBe(true);
        }
      }),
    );
  });
});
