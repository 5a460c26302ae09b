import { describe, expect, it } from 'vitest';
import { categoryMatches, dice, scoreLabelled, unitTerms, type ScoredConversation } from '../../../src/lib/core/extract/eval-labelled';
import { goldUnits, parseLabelledConversation, type LabelledConversation } from '../../../src/lib/core/extract/labelled-corpus';
import type { CandidateUnit, Category } from '../../../src/lib/core/extract/units';

const conversation: LabelledConversation = {
  id: 'c',
  title: 'Lisbon',
  turns: [
    { id: 't1', role: 'user', text: 'No car: we will use trains only. Skip Sintra on day 3.', units: [] },
    {
      id: 't2',
      role: 'assistant',
      text: 'Cascais is an easier alternative.',
      units: [{ category: 'Ideas', text: 'Cascais is an easier alternative.' }],
    },
  ],
};
conversation.turns[0]!.units = [
  { category: 'Decisions', text: 'No car: we will use trains only.' },
  { category: 'Decisions', text: 'Skip Sintra on day 3.' },
];

const unit = (category: Category, text: string, ids = ['t1']): CandidateUnit => ({
  kind: 'fact',
  category,
  text,
  sourceMessageIds: ids,
  repairs: [],
});

function scored(predicted: CandidateUnit[]): ScoredConversation {
  return {
    split: '.',
    conversation,
    gold: goldUnits(conversation),
    predicted,
    roles: new Map([
      ['t1', 'user'],
      ['t2', 'assistant'],
    ]),
  };
}

describe('unit terms and Dice', () => {
  it('keeps single-digit numbers, stems words, drops stop words and notes negation', () => {
    expect(unitTerms('Skip Sintra on day 3.')).toEqual({ terms: new Set(['skip', 'sintra', 'dai', '3']), negated: false });
    expect(unitTerms("We won't rent a car").negated).toBe(true);
    expect(dice(new Set(['a', 'b']), new Set(['a', 'c']))).toBe(0.5);
    expect(dice(new Set(), new Set())).toBe(0);
  });
});

describe('labelled scoring', () => {
  it('matches a unit with the same category, turn and enough shared words', () => {
    const r = scoreLabelled([scored([unit('Decisions', "Let's skip Sintra on day 3."), unit('Ideas', 'Cascais is easier.', ['t2'])])], 'x');
    expect(r.byCategory.Decisions).toMatchObject({ gold: 2, predicted: 1, matched: 1, precision: 1, recall: 0.5 });
    expect(r.byCategory.Ideas).toMatchObject({ gold: 1, predicted: 1, matched: 1, f1: 1 });
  });

  it('does not match a unit that lost its negation', () => {
    const r = scoreLabelled([scored([unit('Decisions', 'Car: we will use trains only.')])], 'x');
    expect(r.byCategory.Decisions.matched).toBe(0);
    const kept = scoreLabelled([scored([unit('Decisions', 'No car, we use trains only.')])], 'x');
    expect(kept.byCategory.Decisions.matched).toBe(1);
  });

  it('does not match a unit citing another turn, nor below the overlap threshold', () => {
    expect(scoreLabelled([scored([unit('Decisions', 'Skip Sintra on day 3.', ['t2'])])], 'x').byCategory.Decisions.matched).toBe(0);
    expect(
      scoreLabelled([scored([unit('Decisions', 'Sintra is lovely in spring with its palaces.')])], 'x').byCategory.Decisions.matched,
    ).toBe(0);
  });

  it('pairs one-to-one: a repeated prediction counts once', () => {
    const r = scoreLabelled([scored([unit('Decisions', 'Skip Sintra on day 3.'), unit('Decisions', 'Skip Sintra, day 3.')])], 'x');
    expect(r.byCategory.Decisions).toMatchObject({ predicted: 2, matched: 1, precision: 0.5 });
    expect(categoryMatches(goldUnits(conversation), [unit('Decisions', 'Skip Sintra on day 3.')])).toEqual([{ gold: 1, predicted: 0 }]);
  });

  it('counts a right unit in the wrong category as found but confused, and Decisions citing the assistant', () => {
    const r = scoreLabelled(
      [scored([unit('Facts', 'Skip Sintra on day 3.'), unit('Decisions', 'Cascais is an easier alternative.', ['t2'])])],
      'x',
    );
    expect(r.byCategory.Decisions.matched).toBe(0);
    expect(r.detection.matched).toBe(2);
    expect(r.confusion.Decisions).toEqual({ Facts: 1, missed: 1 });
    expect(r.confusion.Ideas).toEqual({ Decisions: 1 });
    expect(r.decisionsCitingAssistant).toBe(1);
  });

  it('averages F1 over the categories present only', () => {
    const r = scoreLabelled([scored([unit('Decisions', 'Skip Sintra on day 3.'), unit('Decisions', 'No car, trains only.')])], 'x');
    // Decisions F1 1, Ideas F1 0 (missed): the six absent categories do not count.
    expect(r.macroF1).toBe(0.5);
    expect(r.curve.map((c) => c.threshold)).toEqual([0.3, 0.4, 0.5, 0.6, 0.7, 0.8]);
  });
});

describe('labelled corpus files', () => {
  const file = (turns: unknown) => ({ id: 'x', title: 't', turns });
  it('accepts a well-formed conversation', () => {
    expect(parseLabelledConversation(conversation, 'c.json').ok).toBe(true);
  });

  it('refuses unknown categories, duplicate turn ids, Decisions on assistant turns and adopts of a user turn', () => {
    const bad = [
      file([{ id: 't1', role: 'user', text: 'x', units: [{ category: 'Decision', text: 'x' }] }]),
      file([
        { id: 't1', role: 'user', text: 'x', units: [] },
        { id: 't1', role: 'assistant', text: 'y', units: [] },
      ]),
      file([{ id: 't1', role: 'assistant', text: 'x', units: [{ category: 'Decisions', text: 'x' }] }]),
      file([
        { id: 't1', role: 'user', text: 'x', units: [] },
        { id: 't2', role: 'user', text: 'yes', units: [{ category: 'Decisions', text: 'x', adopts: 't1' }] },
      ]),
    ];
    const messages = bad.map((b) => {
      const r = parseLabelledConversation(b, 'bad.json');
      return r.ok ? 'ok' : r.error.message;
    });
    expect(messages[0]).toMatch(/^bad\.json: turns\.0\.units\.0\.category/);
    expect(messages[1]).toMatch(/turn id "t1" is used twice/);
    expect(messages[2]).toMatch(/assistant's; a Decision cites a user turn/);
    expect(messages[3]).toMatch(/adopts "t1", not an earlier assistant turn/);
  });
});
