import { describe, expect, it } from 'vitest';
import { dampen, isTemporalAnchor, type HubFacts } from '../../../src/lib/core/recall/dampening';
import { runFunnel } from '../../../src/lib/core/recall/funnel';
import { scored } from '../../factories/recall';

const LONG = ' with enough words around it to pass the fifty character bar';
const off = { gravity: false, hub: false, resolution: false, subject: false };

describe('post-fusion dampening', () => {
  it('gravity halves a candidate reached only by vectors that holds none of the prompt words', () => {
    const vectorOnly = scored({ id: 'v', text: `near in meaning${LONG}` }, 0.8, { bm25Rank: null, vectorRank: 1, coverage: 0 });
    const vectorWithWords = scored({ id: 'w', text: `shares a word${LONG}` }, 0.8, { bm25Rank: null, vectorRank: 2, coverage: 0.3 });
    const both = scored({ id: 'b', text: `found by both${LONG}` }, 0.8, { bm25Rank: 3, vectorRank: 3, coverage: 0 });
    const { candidates, trace } = dampen([vectorOnly, vectorWithWords, both], { ...off, gravity: true });
    expect(candidates.map((c) => c.scores.score)).toEqual([0.8 * 0.6 * 0.5, 0.8 * 0.6, 0.8 * 0.6]);
    expect(candidates[0]!.scores.dampening).toEqual({ gravity: 0.5 });
    expect(trace.gravity).toEqual({ enabled: true, applied: 1 });
    expect(dampen([vectorOnly], off).candidates[0]!.scores.score).toBe(0.8 * 0.6);
  });

  it('hub dampens only when every linked entity is above the P90 mention count', () => {
    const hubs: HubFacts = {
      p90: 100,
      entitiesOf: (id) =>
        id === 'all-hubs'
          ? [
              { id: 'caroline', mentions: 500 },
              { id: 'melanie', mentions: 400 },
            ]
          : id === 'mixed'
            ? [
                { id: 'caroline', mentions: 500 },
                { id: 'pottery', mentions: 3 },
              ]
            : [],
    };
    const cands = ['all-hubs', 'mixed', 'none'].map((id) => scored({ id, text: `text ${id}${LONG}` }, 1));
    const { candidates, trace } = dampen(cands, { ...off, hub: true }, hubs);
    expect(candidates.map((c) => c.scores.dampening?.hub ?? 1)).toEqual([0.7, 1, 1]);
    expect(trace.hub).toEqual({ enabled: true, applied: 1, p90: 100 });
    expect(dampen(cands, { ...off, hub: true }, null).trace.hub.enabled).toBe(false);
  });

  it('resolution boosts decisions and constraints x1.2 and temporal anchors x1.1, never a text under 50 characters', () => {
    const decision = scored({ id: 'd', kind: 'note', category: 'Decisions', text: `We use SQLite for the schedules${LONG}` }, 1);
    const turnDecision = scored({ id: 't', text: `I decided to go with the blue tiles for the bathroom${LONG}` }, 1);
    const dated = scored({ id: 'dated', text: `The race was last Saturday and raised money${LONG}` }, 1);
    const both = scored({ id: 'both', kind: 'note', category: 'Constraints', text: `Must be done by 8 May 2023${LONG}` }, 1);
    const short = scored({ id: 's', kind: 'note', category: 'Decisions', text: 'Yes, last Friday.' }, 1);
    const fact = scored({ id: 'f', kind: 'note', category: 'Facts', text: `The cat eats wet food twice a day${LONG}` }, 1);
    const { candidates, trace } = dampen([decision, turnDecision, dated, both, short, fact], { ...off, resolution: true });
    const factors = candidates.map((c) => c.scores.dampening?.resolution ?? 1);
    expect(factors[0]).toBeCloseTo(1.2, 10);
    expect(factors[1]).toBeCloseTo(1.2, 10);
    expect(factors[2]).toBeCloseTo(1.1, 10);
    expect(factors[3]).toBeCloseTo(1.32, 10);
    expect(factors.slice(4)).toEqual([1, 1]);
    expect(trace.resolution).toEqual({ enabled: true, decisions: 3, temporal: 2 });
  });

  it('subject lifts x1.5 the candidates about the person the prompt names, and only when told who they are', () => {
    const cands = ['hers', 'his'].map((id) => scored({ id, text: `text ${id}${LONG}` }, 1));
    const { candidates, trace } = dampen(cands, { ...off, subject: true }, null, new Set(['hers']));
    expect(candidates.map((c) => c.scores.score)).toEqual([0.6 * 1.5, 0.6]);
    expect(candidates[0]!.scores.dampening).toEqual({ subject: 1.5 });
    expect(trace.subject).toEqual({ enabled: true, applied: 1 });
    // No person named (null): the stage reports itself off; switched off, it does nothing.
    expect(dampen(cands, { ...off, subject: true }, null, null).trace.subject).toEqual({ enabled: false, applied: 0 });
    expect(dampen(cands, off, null, new Set(['hers'])).candidates[0]!.scores.score).toBe(0.6);
  });

  it('recognises temporal anchors, not any number', () => {
    for (const t of ['on 8 May', 'May 8th', 'in May 2023', '2023-05-08', 'last week', 'yesterday', 'three weeks ago', 'every Tuesday'])
      expect(isTemporalAnchor(`It happened ${t}.`)).toBe(true);
    for (const t of ['I have 3 cats', 'may I ask', 'the last one']) expect(isTemporalAnchor(t)).toBe(false);
  });

  it('orders the funnel package: a boosted decision overtakes an equal-ranked plain turn, nothing is dropped', async () => {
    const plain = scored({ id: 'plain', text: `We talked about tiles for a long time${LONG}` }, 1);
    const decided = scored({ id: 'decided', text: `We decided to go with the blue tiles in the end${LONG}` }, 0.95);
    const { candidates } = dampen([plain, decided]);
    const out = await runFunnel(candidates, 'tiles', { enabled: true, floor: { value: -1, embedderId: 't', derivation: 't' } });
    expect(out.items.map((c) => c.record.id)).toEqual(['decided', 'plain']);
    const undamped = await runFunnel([plain, decided], 'tiles', { enabled: true, floor: { value: -1, embedderId: 't', derivation: 't' } });
    expect(undamped.items.map((c) => c.record.id)).toEqual(['plain', 'decided']);
  });
});
