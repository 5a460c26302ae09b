import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from '../../../src/lib/core/breaker/circuit-breaker';
import type { StageCall } from '../../../src/lib/core/breaker/stage-guard';
import { blend, blendWeights, RERANK_BLEND, rerankStage, type Reranker } from '../../../src/lib/core/recall/rerank';
import { provenanceRank } from '../../../src/lib/core/recall/provenance-rank';
import { scored } from '../../factories/recall';

/** A fake cross-encoder: the score of a passage is looked up by a word it contains. */
function wordReranker(scoresByWord: Record<string, number>, calls: string[][] = []): Reranker {
  return {
    id: 'fake:words',
    async score(_query, passages) {
      calls.push([...passages]);
      return passages.map((p) => Object.entries(scoresByWord).find(([w]) => p.includes(w))?.[1] ?? 0);
    },
  };
}

/** Three chat candidates in first-stage order a > b > c, with fused scores that do not trip the attention gate. */
function three() {
  return [
    scored({ id: 'a', text: 'alpha' }, 1.0, { rrf: 0.05 }),
    scored({ id: 'b', text: 'bravo' }, 0.9, { rrf: 0.04 }),
    scored({ id: 'c', text: 'charlie' }, 0.8, { rrf: 0.03 }),
  ];
}

describe('blend weights by intent', () => {
  it('are the seeds: 0.3/0.7 by default, 0.2/0.8 for lookups, 0.5/0.5 for exploration', () => {
    expect(RERANK_BLEND).toEqual({
      default: { first: 0.3, rerank: 0.7 },
      lookup: { first: 0.2, rerank: 0.8 },
      exploration: { first: 0.5, rerank: 0.5 },
    });
    expect(blendWeights(null)).toEqual({ first: 0.3, rerank: 0.7 });
    expect(blendWeights('conceptual')).toEqual({ first: 0.3, rerank: 0.7 });
    expect(blendWeights('entity_lookup')).toEqual({ first: 0.2, rerank: 0.8 });
    expect(blendWeights('factual')).toEqual({ first: 0.2, rerank: 0.8 });
    expect(blendWeights('exploratory')).toEqual({ first: 0.5, rerank: 0.5 });
  });
});

describe('blend', () => {
  it('min-max normalizes both scores and weighs them', () => {
    const out = blend(three(), [0, 10, 5], { first: 0.3, rerank: 0.7 });
    // first stage normalized: a 1, b 0.5, c 0; reranker: a 0, b 1, c 0.5.
    expect(out.map((c) => c.rerank!.blended)).toEqual([0.3, 0.3 * 0.5 + 0.7, 0.35]);
    expect(out.map((c) => c.rerank!.score)).toEqual([0, 10, 5]);
  });

  it('maps the blend onto the first-stage relevance range, so provenance weighs as before', () => {
    const out = blend(three(), [0, 10, 5], { first: 0.3, rerank: 0.7 });
    // relevance range 0.8..1.0: b = 0.8 + 0.85 x 0.2
    expect(out[1]!.scores.relevance).toBeCloseTo(0.97, 9);
    expect(out[1]!.scores.score).toBeCloseTo(0.97 * 0.6, 9);
    for (const c of out) {
      expect(c.scores.relevance).toBeGreaterThanOrEqual(0.8);
      expect(c.scores.relevance).toBeLessThanOrEqual(1);
    }
  });

  it('a stronger reranker weight lets the cross-encoder overturn a bigger first-stage lead', () => {
    const candidates = three();
    const scores = [0, 1, 0.9];
    // Lookup: a = 0.2, b = 0.1 + 0.8 = 0.9, c = 0 + 0.72: c overtakes a.
    expect(provenanceRank(blend(candidates, scores, RERANK_BLEND.lookup)).map((c) => c.record.id)).toEqual(['b', 'c', 'a']);
    // Exploration: a = 0.5, b = 0.25 + 0.5 = 0.75, c = 0 + 0.45: a keeps its place ahead of c.
    expect(provenanceRank(blend(candidates, scores, RERANK_BLEND.exploration)).map((c) => c.record.id)).toEqual(['b', 'a', 'c']);
  });
});

describe('rerankStage', () => {
  it('reorders the survivors through provenance rank by the blended relevance', async () => {
    const calls: string[][] = [];
    const out = await rerankStage(three(), { reranker: wordReranker({ charlie: 9, bravo: 1, alpha: 0 }, calls), query: 'q' });
    expect(calls).toEqual([['alpha', 'bravo', 'charlie']]);
    expect(out.status).toMatchObject({ ran: true, rerankerId: 'fake:words', pairs: 3, weights: RERANK_BLEND.default, moved: 3 });
    // a = 0.3, b = 0.15 + 0.7 / 9, c = 0.7
    expect(provenanceRank(out.candidates).map((c) => c.record.id)).toEqual(['c', 'a', 'b']);
  });

  it('is skipped by the attention gate, with its rule, and never calls the model then', async () => {
    const calls: string[][] = [];
    const reranker = wordReranker({ charlie: 9 }, calls);
    const two = await rerankStage(three().slice(0, 2), { reranker });
    expect(two.status).toMatchObject({ ran: false, reason: 'attention', rule: 'too-few' });
    const dominant = three().map((c, i) => ({ ...c, signals: { ...c.signals, rrf: i === 0 ? 0.1 : 0.01 } }));
    expect((await rerankStage(dominant, { reranker })).status).toMatchObject({ ran: false, reason: 'attention', rule: 'dominant-first' });
    const tight = three().map((c) => ({ ...c, signals: { ...c.signals, rrf: 0.02 } }));
    const outcome = await rerankStage(tight, { reranker });
    expect(outcome.status).toMatchObject({ ran: false, reason: 'attention', rule: 'tight-cluster' });
    expect(outcome.candidates.map((c) => c.record.id)).toEqual(['a', 'b', 'c']);
    expect(calls).toEqual([]);
  });

  it('keeps the first-stage order and says so when the reranker fails or times out', async () => {
    const failing: Reranker = { id: 'x', score: () => Promise.reject(new Error('ORT session failed')) };
    const failed = await rerankStage(three(), { reranker: failing });
    expect(failed.status).toMatchObject({ ran: false, reason: 'error' });
    if (!failed.status.ran) expect(failed.status.message).toContain('ORT session failed');
    expect(failed.candidates.map((c) => c.record.id)).toEqual(['a', 'b', 'c']);
    expect(failed.candidates.every((c) => c.rerank === undefined)).toBe(true);

    const hanging: Reranker = { id: 'h', score: () => new Promise(() => undefined) };
    const timedOut = await rerankStage(three(), { reranker: hanging, timeoutMs: 5 });
    expect(timedOut.status).toMatchObject({ ran: false, reason: 'timeout' });

    const short: Reranker = { id: 's', score: async () => [1] };
    expect((await rerankStage(three(), { reranker: short })).status).toMatchObject({ ran: false, reason: 'error' });
  });

  it('is bypassed by its open circuit breaker after three failures, and a successful probe closes it', async () => {
    let t = 0;
    const breaker = new CircuitBreaker('rerank', { now: () => t });
    const calls: StageCall[] = [];
    const guard = { breaker, now: () => t, record: (c: StageCall) => calls.push(c) };
    let down = true;
    let asked = 0;
    const flaky: Reranker = {
      id: 'flaky',
      score: async (_q, passages) => {
        asked++;
        if (down) throw new Error('backend lost');
        return passages.map((_, i) => i);
      },
    };
    for (let i = 0; i < 3; i++) expect((await rerankStage(three(), { reranker: flaky, guard })).status).toMatchObject({ reason: 'error' });
    const bypassed = await rerankStage(three(), { reranker: flaky, guard });
    expect(bypassed.status).toMatchObject({ ran: false, reason: 'breaker-open' });
    if (!bypassed.status.ran) expect(bypassed.status.message).toContain('retries in 10 min');
    expect(asked).toBe(3);
    expect(calls.map((c) => c.outcome)).toEqual(['failed', 'failed', 'failed', 'bypassed']);

    t += 600_000;
    down = false;
    expect((await rerankStage(three(), { reranker: flaky, guard })).status).toMatchObject({ ran: true });
    expect(breaker.status().state).toBe('closed');
    expect(asked).toBe(4);
  });

  it('does nothing when switched off or without a reranker', async () => {
    expect((await rerankStage(three(), { enabled: false, reranker: wordReranker({}) })).status).toMatchObject({ reason: 'disabled' });
    expect((await rerankStage(three(), {})).status).toMatchObject({ reason: 'no-reranker' });
  });
});
