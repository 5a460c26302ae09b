import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuse, RRF_K, rrfScores, type RankedList } from '../../../src/lib/core/recall/rrf';

const ids = fc.uniqueArray(fc.constantFrom(...'abcdefghijklmnop'.split('')), { maxLength: 12 });
const lists = fc.array(fc.record({ ids, weight: fc.option(fc.double({ min: 0.05, max: 2, noNaN: true }), { nil: undefined }) }), {
  maxLength: 6,
});

describe('rrf', () => {
  it('scores sum w / (k + rank) over the lists, rank 1-based', () => {
    const scores = rrfScores([{ ids: ['a', 'b'] }, { ids: ['b', 'c'], weight: 0.5 }]);
    expect(scores.get('a')).toBeCloseTo(1 / 61, 12);
    expect(scores.get('b')).toBeCloseTo(1 / 62 + 0.5 / 61, 12);
    expect(scores.get('c')).toBeCloseTo(0.5 / 62, 12);
    expect(RRF_K).toBe(60);
  });

  it('keeps the order of a single list and counts a repeated id at its first rank only', () => {
    expect(fuse([{ ids: ['x', 'y', 'x', 'z'] }]).map((f) => f.id)).toEqual(['x', 'y', 'z']);
    expect(rrfScores([{ ids: ['x', 'x'] }]).get('x')).toBeCloseTo(1 / 61, 12);
  });

  it('is invariant to the order of its input lists (bit-identical scores and order)', () => {
    fc.assert(
      fc.property(lists, fc.infiniteStream(fc.nat()), (input, seeds) => {
        const shuffled = [...input];
        for (let i = shuffled.length - 1; i > 0; i -= 1) {
          const j = seeds.next().value % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
        }
        expect(fuse(shuffled)).toEqual(fuse(input));
      }),
    );
  });

  it('is monotone: moving an id up in one list raises its score and never lets an id it beat pass it', () => {
    fc.assert(
      fc.property(lists, fc.nat(), fc.nat(), (input, li, pos) => {
        const nonEmpty = input.filter((l) => l.ids.length >= 2);
        if (nonEmpty.length === 0) return;
        const list = nonEmpty[li % nonEmpty.length]!;
        const at = 1 + (pos % (list.ids.length - 1));
        const moved = [...list.ids];
        [moved[at - 1], moved[at]] = [moved[at]!, moved[at - 1]!];
        const promoted = moved[at - 1]!;
        const after: RankedList[] = input.map((l) => (l === list ? { ...l, ids: moved } : l));
        const before = rrfScores(input);
        const now = rrfScores(after);
        expect(now.get(promoted)!).toBeGreaterThan(before.get(promoted)!);
        for (const [id, score] of before) {
          if (id === promoted || score > before.get(promoted)!) continue;
          expect(now.get(id)!).toBeLessThanOrEqual(now.get(promoted)!);
        }
      }),
    );
  });

  it('ranks agreement across lists above a single first place', () => {
    const fused = fuse([{ ids: ['solo', 'both'] }, { ids: ['x', 'both'] }, { ids: ['y', 'both'] }]);
    expect(fused[0]!.id).toBe('both');
  });

  it('breaks ties by id, so equal scores still give one order', () => {
    expect(fuse([{ ids: ['b'] }, { ids: ['a'] }]).map((f) => f.id)).toEqual(['a', 'b']);
  });
});

describe('rrf groups (a hint list beside its BM25 list)', () => {
  it('gives an id the largest contribution of a group, never the sum', () => {
    const scores = rrfScores([{ ids: ['a', 'b'], group: 'lex' }, { ids: ['b', 'c'], group: 'lex' }, { ids: ['b'] }]);
    expect(scores.get('a')).toBeCloseTo(1 / 61, 12);
    expect(scores.get('b')).toBeCloseTo(1 / 61 + 1 / 61, 12); // max(1/62, 1/61) of the group, plus the ungrouped list
    expect(scores.get('c')).toBeCloseTo(1 / 62, 12);
  });

  it('a grouped list never lowers a score and never raises one past the best list of its group', () => {
    fc.assert(
      fc.property(lists, ids, (input, hinted) => {
        const base = rrfScores(input.map((l, i) => (i === 0 ? { ...l, group: 'g' } : l)));
        const lifted = rrfScores([...input.map((l, i) => (i === 0 ? { ...l, group: 'g' } : l)), { ids: hinted, group: 'g' }]);
        for (const [id, score] of base) expect(lifted.get(id)!).toBeGreaterThanOrEqual(score - 1e-15);
        if (input.length === 0) return;
        const first = input[0]!;
        for (const [id, score] of lifted) {
          const own = first.ids.indexOf(id);
          const hint = hinted.indexOf(id);
          const group = Math.max(own < 0 ? 0 : (first.weight ?? 1) / (61 + own), hint < 0 ? 0 : 1 / (61 + hint));
          const rest = rrfScores(input.slice(1)).get(id) ?? 0;
          expect(score).toBeCloseTo(group + rest, 12);
        }
      }),
    );
  });
});
