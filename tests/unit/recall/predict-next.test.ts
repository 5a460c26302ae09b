import { describe, expect, it } from 'vitest';
import { predictNext, promptKey } from '../../../src/lib/core/recall/predict-next';

describe('promptKey', () => {
  it('matches the same question in other words order, inflection and frame', () => {
    expect(promptKey('What has Caroline painted?')).toBe(promptKey('caroline paint'));
    expect(promptKey('What did Caroline paint?')).toBe(promptKey('Caroline painting'));
    expect(promptKey('When did Melanie run a charity race?')).toBe(promptKey('charity races Melanie running'));
    expect(promptKey('What did Caroline paint?')).not.toBe(promptKey('What did Melanie paint?'));
  });
});

describe('predictNext', () => {
  const shown = [
    'Caroline: I painted a sunrise over the lake last weekend.',
    'Melanie: That sounds lovely! I went to the pottery workshop with my kids.',
    'Caroline: The LGBTQ support group meets on Tuesdays.',
  ];

  it('guesses the same question about the other person named in the session', () => {
    const out = predictNext({ prompt: 'What did Caroline paint?', recent: [], shown });
    expect(out[0]).toMatchObject({ prompt: 'What did Melanie paint?', source: 'analogous' });
    expect(out[0]!.key).toBe(promptKey('What did Melanie paint?'));
  });

  it('guesses from the topics of the items shown and the words nothing shown holds', () => {
    const out = predictNext({ prompt: 'What did Caroline paint at the beach?', recent: [], shown }, 8);
    const sources = out.map((p) => p.source);
    expect(sources).toContain('shown');
    expect(out.find((p) => p.source === 'shown')!.prompt).toMatch(/^Caroline /u);
    const unanswered = out.find((p) => p.source === 'unanswered');
    expect(unanswered).toMatchObject({ prompt: 'Caroline beach' });
    expect(unanswered!.reason).toContain('beach');
  });

  it('offers earlier prompts of the session, newest first, and never the prompt itself or one guess twice', () => {
    const out = predictNext(
      {
        prompt: 'What did Caroline paint?',
        recent: ['Where does Melanie work?', 'What did Caroline paint?', 'Where does Melanie work?'],
        shown: [],
      },
      8,
    );
    const keys = out.map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).not.toContain(promptKey('What did Caroline paint?'));
    expect(out.filter((p) => p.source === 'recent').map((p) => p.prompt)).toEqual(['Where does Melanie work?']);
  });

  it('stops at max', () => {
    expect(predictNext({ prompt: 'What did Caroline paint?', recent: ['Where does Melanie work?'], shown }, 2)).toHaveLength(2);
    expect(predictNext({ prompt: 'hello', recent: [], shown: [] })).toEqual([]);
  });
});
