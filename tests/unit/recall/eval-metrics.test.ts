import { describe, expect, it } from 'vitest';
import {
  evidenceRecall,
  holdsEvidence,
  packageTokens,
  packagePrecision,
  packByBudget,
  percentile,
  recallAtBudget,
  recallAtK,
} from '../../../src/lib/core/recall/eval-metrics';

const ranked = [
  { diaIds: ['D1:1'], tokens: 30 },
  { diaIds: ['D1:2', 'D1:3'], tokens: 50 },
  { diaIds: ['D2:1'], tokens: 400 },
  { diaIds: ['D2:2'], tokens: 10 },
];

describe('evidence recall', () => {
  it('is the share of evidence turns behind the items', () => {
    expect(evidenceRecall(['D1:1', 'D2:2'], ranked)).toBe(1);
    expect(recallAtK(['D1:1', 'D2:2'], ranked, 2)).toBe(0.5);
    expect(recallAtK(['D1:3'], ranked, 1)).toBe(0);
    expect(evidenceRecall([], ranked)).toBe(0);
  });

  it('packs items in rank order while they fit and stops at the first that does not', () => {
    expect(packByBudget(ranked, 100).map((i) => i.tokens)).toEqual([30, 50]);
    expect(recallAtBudget(['D2:2'], ranked, 100)).toBe(0);
    expect(recallAtBudget(['D2:1', 'D1:2'], ranked, 500)).toBe(1);
  });

  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('package precision and size', () => {
  it('is the share of package items holding at least one evidence turn; an empty package has none', () => {
    expect(packagePrecision(['D1:3'], ranked)).toBe(0.25);
    expect(packagePrecision(['D1:1', 'D2:2', 'D9:9'], ranked)).toBe(0.5);
    expect(packagePrecision(['D1:1', 'D2:2', 'D1:2'], ranked)).toBe(0.75);
    expect(packagePrecision(['D9:9'], ranked)).toBe(0);
    expect(packagePrecision(['D1:1'], [])).toBeNull();
  });

  it('says whether one item holds any evidence turn', () => {
    expect(holdsEvidence(['D1:3'], ranked[1]!)).toBe(true);
    expect(holdsEvidence(['D1:3'], ranked[0]!)).toBe(false);
  });

  it('counts the tokens of every item', () => {
    expect(packageTokens(ranked)).toBe(490);
    expect(packageTokens([])).toBe(0);
  });
});
