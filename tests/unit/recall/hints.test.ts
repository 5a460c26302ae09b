/**
 * The rule hints (core/recall/hints.ts) and their index (hint-index.ts): what a hint adds to a
 * document's words, and that a parent is found at its best hint.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HintIndex } from '../../../src/lib/core/recall/hint-index';
import { HINTS_PER_DOC, namedSpeaker, ruleHints } from '../../../src/lib/core/recall/hints';
import { analyze } from '../../../src/lib/core/text/analyze';
import { verbBase } from '../../../src/lib/core/text/verb-base';

const terms = (text: string) => new Set(analyze(text));

describe('rule hints', () => {
  it("name a speaker's first person and add an irregular verb's base form", () => {
    const [hint] = ruleHints({ text: 'I went to a support group yesterday.', speaker: 'Caroline' });
    expect(hint).toMatch(/^When did they: Caroline went go /u); // the name once, in the unit's words
    const words = terms(hint!);
    for (const w of analyze('Caroline go went support group yesterday')) expect(words.has(w)).toBe(true);
  });

  it('never name a role: a user speaks as "I"', () => {
    expect(namedSpeaker('user')).toBeNull();
    expect(namedSpeaker('assistant')).toBeNull();
    expect(namedSpeaker('Melanie')).toBe('Melanie');
    const [hint] = ruleHints({ text: 'I bought a water fountain for the cat.', speaker: 'user' });
    expect(hint).not.toMatch(/user/u);
    expect(terms(hint!).has(analyze('buy')[0]!)).toBe(true);
  });

  it("ask with a unit's category words: a decision is what was decided, chosen or picked", () => {
    const [decision] = ruleHints({ text: 'Keep the price at 89 euros.', speaker: null, category: 'Decisions' });
    for (const w of analyze('decide choose pick price 89 euros')) expect(terms(decision!).has(w)).toBe(true);
    const [constraint] = ruleHints({ text: 'The budget cannot exceed 2,000 euros.', speaker: null, category: 'Constraints' });
    for (const w of analyze('constraint limit requirement budget')) expect(terms(constraint!).has(w)).toBe(true);
    const [action] = ruleHints({ text: 'Book the Alfama guesthouse this week.', speaker: null, category: 'Action Items' });
    for (const w of analyze('need plan book guesthouse')) expect(terms(action!).has(w)).toBe(true);
  });

  it("a chunk's extracted units come first, then its cued sentences, then the rest", () => {
    const hints = ruleHints({
      text: 'The weather was grey all day. I love the Cascais beach in May. We looked at three hotels near the river.',
      speaker: 'Maria',
      units: [{ text: "We'll stay in Alfama, not Baixa.", category: 'Decisions' }],
    });
    expect(hints[0]).toMatch(/decide/u);
    expect(hints[1]).toMatch(/favorite/u);
    expect(hints).toHaveLength(4);
  });

  it('leave out questions asked and sentences too short to ask about', () => {
    expect(ruleHints({ text: 'Should we take the train? Sounds good. Ok!', speaker: 'Ana' })).toEqual([]);
  });

  it(`give at most ${HINTS_PER_DOC} distinct hints, whatever the text`, () => {
    fc.assert(
      fc.property(
        fc.array(fc.lorem({ maxCount: 12, mode: 'sentences' }), { maxLength: 12 }),
        fc.option(fc.constantFrom('Ana', 'user')),
        (sentences, speaker) => {
          const hints = ruleHints({
            text: sentences.join(' '),
            speaker,
            units: sentences.slice(0, 3).map((text) => ({ text, category: 'Ideas' })),
          });
          expect(hints.length).toBeLessThanOrEqual(HINTS_PER_DOC);
          expect(new Set(hints).size).toBe(hints.length);
        },
      ),
    );
  });

  it('read irregular verb forms from WordNet and leave regular ones to the stemmer', () => {
    expect(verbBase('went')).toBe('go');
    expect(verbBase('Bought')).toBe('buy');
    expect(verbBase('painted')).toBeNull();
    expect(verbBase('constructor')).toBeNull(); // an own property of the table, never of Object's prototype
  });
});

describe('the hint index', () => {
  it('finds a parent at its best hint, once, and forgets replaced and removed hints', () => {
    const index = new HintIndex();
    index.set('chunk-a', ['When did Caroline go to the support group?', 'What did Caroline say about painting?']);
    index.set('chunk-b', ['What did Melanie decide, choose or pick: pottery class?']);
    const hits = index.search('when did caroline go to the support group', 5);
    expect(hits[0]).toMatchObject({ id: 'chunk-a', n: 0, terms: analyze('caroline go support group') });
    expect(hits.filter((h) => h.id === 'chunk-a')).toHaveLength(1);
    index.set('chunk-a', ['What did Caroline say about her sunrise painting?']);
    expect(index.search('support group', 5)).toEqual([]);
    expect(index.search('pottery', 5).map((h) => h.id)).toEqual(['chunk-b']);
    index.remove('chunk-b');
    expect(index.search('pottery', 5)).toEqual([]);
    expect(index.size).toBe(1);
    expect(index.hints).toBe(1);
    expect(index.countOf('chunk-a')).toBe(1);
  });
});
