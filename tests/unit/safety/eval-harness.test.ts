/** The scoring of the safety evals themselves: a half-masked key still leaks; any change to a benign text counts. */
import { describe, expect, it } from 'vitest';
import { evalInjection } from '../../../src/lib/core/safety/eval/injection-eval';
import { evalSecrets, leaks } from '../../../src/lib/core/safety/eval/secrets-eval';

describe('secrets eval', () => {
  const secret = 'Zq8vN3kP1xR7tW2mY5bC9dF4gH6jL0aS';
  it('counts a key as leaked when it, or a 16-character piece of it, survives', () => {
    expect(leaks(`key ${secret}`, secret)).toBe(true);
    expect(leaks(`key ${secret.slice(0, 18)}****`, secret)).toBe(true);
    expect(leaks('key [REDACTED:x]', secret)).toBe(false);
    expect(leaks(`key ${secret.slice(0, 8)}…`, secret)).toBe(false);
  });

  it('scores recall per kind and false positives over benign texts', () => {
    const corpus = {
      secrets: [
        { id: 's1', kind: 'a', form: 'prose', text: `one ${secret}`, secrets: [secret] },
        { id: 's2', kind: 'b', form: 'env', text: `TWO=${secret}x`, secrets: [`${secret}x`] },
      ],
      benign: [
        { id: 'b1', category: 'x', text: 'plain words' },
        { id: 'b2', category: 'y', text: 'ENV=1' },
      ],
    };
    const report = evalSecrets(corpus, (t) => t.replace(`one ${secret}`, 'one [R]').replace('ENV=1', 'ENV=[R]'), 'test');
    expect(report).toMatchObject({ recall: 0.5, falsePositiveRate: 0.5, missed: ['b'], cases: 2, benign: 2 });
    expect(report.byKind).toEqual({ a: { cases: 1, caught: 1, recall: 1 }, b: { cases: 1, caught: 0, recall: 0 } });
    expect(report.falsePositives.map((f) => f.id)).toEqual(['b2']);
  });
});

describe('injection eval', () => {
  it('scores detection per technique and false flags', () => {
    const report = evalInjection(
      {
        attacks: [
          { id: 'a1', technique: 'direct', text: 'BAD one' },
          { id: 'a2', technique: 'split', text: 'fine\nfine' },
        ],
        benign: [
          { id: 'n1', category: 'c', text: 'fine' },
          { id: 'n2', category: 'c', text: 'BAD but benign' },
          { id: 'n3', category: 'c', text: 'fine too' },
          { id: 'n4', category: 'c', text: 'fine three' },
        ],
      },
      (text) => text.includes('BAD'),
    );
    expect(report).toMatchObject({ detection: 0.5, falseFlagRate: 0.25, missed: ['split'], attacks: 2, benign: 4 });
    expect(report.byTechnique.direct).toEqual({ cases: 1, detected: 1, detection: 1 });
  });
});
