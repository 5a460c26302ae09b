import { describe, expect, it } from 'vitest';
import { ATTENTION_DEFAULTS, attentionGate } from '../../../src/lib/core/recall/attention-gate';

describe('attention gate (skip the reranker when it cannot help)', () => {
  it('skips two or fewer candidates', () => {
    expect(attentionGate([])).toMatchObject({ rerank: false, rule: 'too-few' });
    expect(attentionGate([0.05])).toMatchObject({ rerank: false, rule: 'too-few' });
    expect(attentionGate([0.05, 0.01])).toMatchObject({ rerank: false, rule: 'too-few' });
  });

  it('skips when the first score dominates (its lead over the second is at least the gap threshold)', () => {
    const lead = ATTENTION_DEFAULTS.dominantGap;
    // second = first x (1 - lead): exactly at the threshold skips...
    const verdict = attentionGate([1, 1 - lead, 0.2]);
    expect(verdict).toMatchObject({ rerank: false, rule: 'dominant-first' });
    expect(verdict.gap).toBeCloseTo(lead, 9);
    // ...just under it reranks.
    expect(attentionGate([1, 1 - lead + 0.01, 0.2])).toMatchObject({ rerank: true });
  });

  it('skips a tight cluster (every score within the band of the first)', () => {
    const band = ATTENTION_DEFAULTS.clusterBand;
    const verdict = attentionGate([1, 1 - band / 2, 1 - band]);
    expect(verdict).toMatchObject({ rerank: false, rule: 'tight-cluster' });
    expect(verdict.spread).toBeCloseTo(band, 9);
    expect(attentionGate([1, 1 - band / 2, 1 - band - 0.01])).toMatchObject({ rerank: true });
  });

  it('reads the scores in any order (the top is the largest)', () => {
    expect(attentionGate([0.2, 1, 0.95])).toMatchObject({ rerank: true });
    expect(attentionGate([0.2, 0.3, 1])).toMatchObject({ rerank: false, rule: 'dominant-first' });
  });

  it('says which rule fired and why, in words', () => {
    const few = attentionGate([1, 0.5]);
    expect(few.rerank).toBe(false);
    if (!few.rerank) expect(few.message).toContain('2 candidates');
    const dominant = attentionGate([1, 0.2, 0.1]);
    if (!dominant.rerank) expect(dominant.message).toMatch(/first .* ahead/u);
    const cluster = attentionGate([1, 1, 1, 1]);
    if (!cluster.rerank) expect(cluster.message).toContain('within');
    expect(cluster).toMatchObject({ rerank: false, rule: 'tight-cluster' });
  });

  it('takes its thresholds as options, and a zero or negative top score never divides by zero', () => {
    expect(attentionGate([1, 0.6, 0.5], { dominantGap: 0.3 })).toMatchObject({ rerank: false, rule: 'dominant-first' });
    expect(attentionGate([1, 0.6, 0.5], { dominantGap: 0.5 })).toMatchObject({ rerank: true });
    expect(attentionGate([1, 0.6, 0.5], { minCandidates: 4 })).toMatchObject({ rerank: false, rule: 'too-few' });
    expect(attentionGate([0, 0, 0])).toMatchObject({ rerank: false, rule: 'tight-cluster' });
  });
});
