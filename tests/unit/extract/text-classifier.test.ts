import { describe, expect, it } from 'vitest';
import type { Segment } from '../../../src/lib/core/extract/segments';
import { classifySegment, textFeatures, trainTextClassifier, type TextExample } from '../../../src/lib/core/extract/text-classifier';

const segment = (text: string, over: Partial<Segment> = {}): Segment => ({
  text,
  category: 'Facts',
  cue: 'fact',
  role: 'user',
  messageId: 'm1',
  clause: text,
  firstUserTurn: false,
  decidedSentence: false,
  optionList: false,
  piece: false,
  ...over,
});

const example = (text: string, label: TextExample['label'], role: Segment['role'] = 'user'): TextExample => ({
  features: textFeatures(segment(text, { role })),
  label,
});

const EXAMPLES: TextExample[] = [
  example('We will take the night train to Porto.', 'Decisions'),
  example('We will take the ferry.', 'Decisions'),
  example('We will take the blue tent.', 'Decisions'),
  example('The train leaves at nine.', 'Facts'),
  example('The ferry is slow.', 'Facts'),
  example('The tent weighs two kilos.', 'Facts'),
  example('You could take the ferry.', 'Ideas', 'assistant'),
  example('You could take the bus.', 'Ideas', 'assistant'),
];

describe('text classifier of the rule-based segments (experiment, issue 13)', () => {
  it('reads words, bigrams and cues, never the rules category or cue', () => {
    const f = textFeatures(segment('We will take the ferry.', { category: 'Decisions', cue: 'future-choice:take' }));
    expect(f).toContain('user:u=take');
    expect(f).toContain('user:b=will take');
    expect(f.some((x) => x.includes('Decisions') || x.includes('future-choice'))).toBe(false);
  });

  it('trains deterministically and learns a separable set', () => {
    const a = trainTextClassifier(EXAMPLES, { iterations: 200, learningRate: 0.5, l2: 0, minCount: 1 });
    const b = trainTextClassifier(EXAMPLES, { iterations: 200, learningRate: 0.5, l2: 0, minCount: 1 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const options = { minConfidence: 0, drop: false };
    expect(classifySegment(a, segment('We will take the bus.'), options)).toBe('Decisions');
    expect(classifySegment(a, segment('The bus is slow.'), options)).toBe('Facts');
  });

  it('never files an assistant segment as a Decision, keeps adoptions, and defers to the rules when unsure', () => {
    const w = trainTextClassifier(EXAMPLES, { iterations: 200, learningRate: 0.5, l2: 0, minCount: 1 });
    expect(classifySegment(w, segment('We will take the bus.', { role: 'assistant' }), { minConfidence: 0, drop: false })).not.toBe(
      'Decisions',
    );
    expect(
      classifySegment(w, segment('The bus is slow.', { category: 'Decisions', cue: 'adoption' }), { minConfidence: 0, drop: false }),
    ).toBe('Decisions');
    expect(classifySegment(w, segment('Zebra quartz.', { category: 'Topics' }), { minConfidence: 0.99, drop: false })).toBe('Topics');
  });
});
