import { describe, expect, it } from 'vitest';
import { dedupByProvenance } from '../../../src/lib/core/recall/dedup';
import { provenanceRank } from '../../../src/lib/core/recall/provenance-rank';
import { applyTokenCap } from '../../../src/lib/core/recall/token-cap';
import { scored } from '../../factories/recall';

describe('provenance rank', () => {
  it('sorts survivors by relevance x provenance x recency, ties by provenance then id', () => {
    const ranked = provenanceRank([
      scored({ id: 'chat-top', tier: 'chat' }, 1),
      scored({ id: 'engram', tier: 'engram' }, 0.7),
      scored({ id: 'web', tier: 'web' }, 1),
      scored({ id: 'resource', tier: 'resource' }, 0.5),
      scored({ id: 'engram-b', tier: 'engram' }, 0.6),
      scored({ id: 'chat-b', tier: 'chat' }, 1),
    ]);
    expect(ranked.map((c) => c.record.id)).toEqual(['engram', 'engram-b', 'chat-b', 'chat-top', 'resource', 'web']);
  });
});

describe('provenance-preserving dedup', () => {
  it('collapses exact duplicates to the highest-provenance copy', () => {
    const { kept, dropped } = dedupByProvenance([
      scored({ id: 'turn', tier: 'chat', text: 'Prune maples in late winter.', contentHash: 'h1' }, 1),
      scored({ id: 'note', tier: 'engram', text: 'prune maples in late winter', contentHash: 'h2' }, 0.5),
      scored({ id: 'other', tier: 'chat', text: 'Water moss daily.', contentHash: 'h3' }, 0.9),
    ]);
    expect(kept.map((c) => c.record.id)).toEqual(['note', 'other']);
    expect(dropped).toEqual([
      { candidate: expect.anything(), stage: 'dedup', reason: 'exact duplicate of note; kept the engram copy (provenance 1)' },
    ]);
  });

  it('collapses near-exact duplicates and leaves rewordings alone', () => {
    const text = 'We chose warm 2700K bollard lights along the garden path to keep the evening soft';
    const { kept, dropped } = dedupByProvenance([
      scored({ id: 'a', tier: 'chat', text }, 1),
      scored({ id: 'b', tier: 'resource', text: `${text}.`.replace('soft', 'soft and') }, 1),
      scored({ id: 'c', tier: 'chat', text: 'Path lights: warm bollards chosen for a soft evening mood' }, 1),
    ]);
    expect(kept.map((c) => c.record.id)).toEqual(['b', 'c']);
    expect(dropped[0]!.reason).toMatch(/^near-exact duplicate of b; kept the resource copy/u);
  });
});

describe('token-cap backstop', () => {
  const count = (c: { record: { text: string } }) => Number(c.record.text);

  it('does not fire under the cap', () => {
    const out = applyTokenCap([scored({ id: 'a', text: '10' }), scored({ id: 'b', text: '20' })], 58_000, count);
    expect(out.status).toEqual({ cap: 58_000, fired: false, tokensBefore: 30, dropped: 0 });
    expect(out.kept).toHaveLength(2);
  });

  it('drops what would overflow, says so, and still fits smaller later items', () => {
    const out = applyTokenCap(
      [scored({ id: 'a', text: '60' }), scored({ id: 'big', text: '50' }), scored({ id: 'c', text: '30' })],
      100,
      count,
    );
    expect(out.kept.map((c) => c.record.id)).toEqual(['a', 'c']);
    expect(out.dropped).toEqual([
      { candidate: expect.anything(), stage: 'token-cap', reason: '50 tokens would pass the 100-token cap (60 already used)' },
    ]);
    expect(out.status).toMatchObject({ fired: true, tokensBefore: 140, dropped: 1 });
  });
});
