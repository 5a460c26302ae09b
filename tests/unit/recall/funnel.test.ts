import { describe, expect, it } from 'vitest';
import { funnelWidth, runFunnel, type FunnelOptions } from '../../../src/lib/core/recall/funnel';
import { countTokens, loadTokenCounter } from '../../../src/lib/core/text/token-count';
import type { ScoredCandidate } from '../../../src/lib/core/recall/types';
import { scriptedLlm } from '../../factories/scripted-llm';
import { scored } from '../../factories/recall';

// The app loads the token counter on demand (core/text/token-count.ts); these tests call core directly.
await loadTokenCounter();

const floor = { value: 0.3, embedderId: 'test', derivation: 'test' };
const words = (n: number, tag = '') => Array.from({ length: n }, (_, i) => `word${tag}${i}`).join(' ');
const options = (over: Partial<FunnelOptions> = {}): FunnelOptions => ({ enabled: true, floor, ...over });

/** Verdicts keeping everything except texts that contain `drop`. */
const gateDropping = (drop: string) =>
  scriptedLlm([
    (messages) => {
      const refs = [...messages[1]!.content.matchAll(/<memory ref="(m\d+)"[^>]*>\n([^<]*)\n<\/memory>/gu)];
      return JSON.stringify({
        verdicts: refs.map(([, ref, text]) => ({
          ref,
          keep: !text!.includes(drop),
          reason: text!.includes(drop) ? 'off-topic' : 'on-topic',
        })),
      });
    },
  ]);

describe('funnel', () => {
  it('runs floor -> gate -> provenance rank -> dedup -> token cap, each drop with its stage and reason', async () => {
    const fused: ScoredCandidate[] = [
      scored({ id: 'chat', tier: 'chat', text: 'garden path lights warm' }, 1, { vectorSimilarity: 0.6 }),
      scored({ id: 'noise', tier: 'chat', text: 'noise' }, 0.9, { vectorSimilarity: 0.1 }),
      scored({ id: 'offtopic', tier: 'engram', text: 'cosmology offtopic' }, 0.8, { vectorSimilarity: 0.7 }),
      scored({ id: 'engram', tier: 'engram', text: 'Garden path lights warm' }, 0.7, { vectorSimilarity: 0.5 }),
      scored({ id: 'resource', tier: 'resource', text: 'lantern placement' }, 0.6, { vectorSimilarity: 0.5 }),
    ];
    const llm = gateDropping('offtopic');
    const out = await runFunnel(fused, 'garden lighting', options({ gate: { llm } }));
    expect(llm.calls[0]!.messages[1]!.content).not.toContain('noise');
    expect(out.items.map((c) => c.record.id)).toEqual(['engram', 'resource']);
    expect(out.dropped.map((d) => [d.candidate.record.id, d.stage])).toEqual([
      ['noise', 'floor'],
      ['offtopic', 'fit-gate'],
      ['chat', 'dedup'],
    ]);
    expect(out.dropped.every((d) => d.reason.length > 0)).toBe(true);
    expect(out.gate).toMatchObject({ ran: true, dropped: 1 });
    expect(out.tokenCap).toMatchObject({ fired: false });
    expect(out.holdsNothing).toBeNull();
  });

  it('retrieves wider for short items, up to the maximum width', () => {
    const count = (c: ScoredCandidate) => c.record.text.split(' ').length;
    const short = Array.from({ length: 80 }, (_, i) => scored({ id: `s${i}`, text: words(20) }));
    expect(funnelWidth(short, 15, 1_500, 50, count)).toBe(50);
    expect(funnelWidth(short, 15, 400, 50, count)).toBe(20);
    const long = Array.from({ length: 80 }, (_, i) => scored({ id: `l${i}`, text: words(200) }));
    expect(funnelWidth(long, 15, 1_500, 50, count)).toBe(15);
    expect(funnelWidth(short.slice(0, 4), 15, 1_500, 50, count)).toBe(4);
  });

  it('lists candidates beyond the width as dropped at the width stage', async () => {
    const fused = Array.from({ length: 20 }, (_, i) => scored({ id: `c${i}`, text: words(400, `c${i}x`), tokenCount: 400 }));
    const out = await runFunnel(fused, 'x', options());
    expect(out.items).toHaveLength(15);
    expect(out.dropped).toHaveLength(5);
    expect(out.dropped[0]).toMatchObject({ stage: 'width', reason: 'fused rank 16 is beyond the funnel width 15' });
  });

  it('says the vault holds nothing when nothing passes the floor, listing the closest misses, never padding', async () => {
    const fused = Array.from({ length: 8 }, (_, i) => scored({ id: `m${i}` }, 1, { vectorSimilarity: 0.05 + i * 0.01 }));
    const out = await runFunnel(fused, 'x', options({ gate: { llm: scriptedLlm([]) } }));
    expect(out.items).toEqual([]);
    expect(out.holdsNothing).toMatchObject({ emptyAt: 'floor', message: expect.stringContaining('holds nothing') });
    expect(out.holdsNothing!.closestMisses.map((d) => d.candidate.record.id)).toEqual(['m7', 'm6', 'm5', 'm4', 'm3']);
    expect(out.gate).toMatchObject({ ran: false, reason: 'no-candidates' });
  });

  it('says the vault holds nothing when the gate judges every match off-topic', async () => {
    const fused = [scored({ id: 'a', text: 'offtopic one' }), scored({ id: 'b', text: 'offtopic two' })];
    const out = await runFunnel(fused, 'x', options({ gate: { llm: gateDropping('offtopic') } }));
    expect(out.holdsNothing).toMatchObject({ emptyAt: 'fit-gate' });
    expect(out.holdsNothing!.closestMisses).toHaveLength(2);
  });

  it('says so when retrieval found nothing at all', async () => {
    expect((await runFunnel([], 'x', options())).holdsNothing).toMatchObject({ emptyAt: 'retrieval', closestMisses: [] });
  });

  it('switched off, returns the plain hybrid ranking and drops nothing', async () => {
    const fused = [scored({ id: 'chat', tier: 'chat' }, 1, { vectorSimilarity: 0.01 }), scored({ id: 'engram', tier: 'engram' }, 0.9)];
    const llm = scriptedLlm([]);
    const out = await runFunnel(fused, 'x', options({ enabled: false, gate: { llm } }));
    expect(out.items.map((c) => c.record.id)).toEqual(['chat', 'engram']);
    expect(out.dropped).toEqual([]);
    expect(out.gate).toMatchObject({ ran: false, reason: 'disabled' });
    expect(out.floor).toBeNull();
    expect(llm.calls).toHaveLength(0);
  });

  it('reports the token cap when it fires', async () => {
    const fused = [scored({ id: 'a', text: words(300, 'a'), tokenCount: 0 }), scored({ id: 'b', text: words(300, 'b'), tokenCount: 0 })];
    const cap = countTokens(words(300, 'a')) + 10;
    const out = await runFunnel(fused, 'x', options({ tokenCap: cap }));
    expect(out.items.map((c) => c.record.id)).toEqual(['a']);
    expect(out.tokenCap).toMatchObject({ cap, fired: true, dropped: 1 });
    expect(out.dropped.at(-1)).toMatchObject({ stage: 'token-cap' });
  });
});
