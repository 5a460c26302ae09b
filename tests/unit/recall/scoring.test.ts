import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accessWrites,
  halfLifeMs,
  PROVENANCE_WEIGHTS,
  RECENCY,
  recencyFactor,
  relevanceAtRank,
  scoreAll,
  weibullRecency,
} from '../../../src/lib/core/recall/scoring';
import { confidenceTierOf, TIER_HALF_LIFE_MS } from '../../../src/lib/core/recall/confidence-tier';
import { candidate, DAY, NOW } from '../../factories/recall';

const base = RECENCY.baseHalfLifeMs;

describe('scoring', () => {
  it('uses the design provenance weights', () => {
    expect(PROVENANCE_WEIGHTS).toEqual({ engram: 1, resource: 0.8, chat: 0.6, web: 0.1 });
  });

  it('decays by confidence tier: chat and web Cold, kept notes and documents Warm, a pin never', () => {
    const old = { createdAt: NOW - 5 * 365 * DAY, lastAccessedAt: null, accessCount: 0 };
    const chat = recencyFactor({ ...old, tier: 'chat' }, NOW);
    expect(chat).toBeLessThan(0.2);
    expect(recencyFactor({ ...old, tier: 'web' }, NOW)).toBe(chat);
    const warm = recencyFactor({ ...old, tier: 'engram' }, NOW);
    expect(warm).toBe(recencyFactor({ ...old, tier: 'resource' }, NOW));
    expect(warm).toBeGreaterThan(chat);
    expect(warm).toBeLessThan(1);
    const hot = recencyFactor({ ...old, tier: 'engram', confidenceTier: 'hot' }, NOW);
    expect(hot).toBeGreaterThan(warm);
    expect(recencyFactor({ ...old, tier: 'engram', confidenceTier: 'hot', pinned: true }, NOW)).toBe(1);
    expect(recencyFactor({ ...old, tier: 'chat', pinned: true }, NOW)).toBe(1);
  });

  it('halves each tier at its own half-life, each tier up doubling the one below', () => {
    for (const tier of ['cold', 'warm', 'hot'] as const) {
      const h = TIER_HALF_LIFE_MS[tier]!;
      const record = { tier: 'engram' as const, confidenceTier: tier, createdAt: NOW - h, lastAccessedAt: null, accessCount: 0 };
      expect(recencyFactor(record, NOW)).toBeCloseTo(0.5, 12);
    }
    expect(TIER_HALF_LIFE_MS.warm).toBe(2 * TIER_HALF_LIFE_MS.cold!);
    expect(TIER_HALF_LIFE_MS.hot).toBe(2 * TIER_HALF_LIFE_MS.warm!);
    expect(TIER_HALF_LIFE_MS.core).toBeNull();
    expect(TIER_HALF_LIFE_MS.cold).toBe(RECENCY.baseHalfLifeMs);
  });

  it('derives the tier from the record: a pin is Core, a stored promotion wins over the default', () => {
    expect(confidenceTierOf({ tier: 'chat', pinned: false })).toBe('cold');
    expect(confidenceTierOf({ tier: 'web', pinned: false })).toBe('cold');
    expect(confidenceTierOf({ tier: 'engram', pinned: false })).toBe('warm');
    expect(confidenceTierOf({ tier: 'resource', pinned: false })).toBe('warm');
    expect(confidenceTierOf({ tier: 'engram', pinned: false, confidenceTier: 'hot' })).toBe('hot');
    expect(confidenceTierOf({ tier: 'engram', pinned: true, confidenceTier: 'hot' })).toBe('core');
  });

  it('lengthens every decaying tier the same way with reads, up to the cap', () => {
    for (const tier of ['cold', 'warm', 'hot'] as const) {
      expect(halfLifeMs(3, tier)).toBe(TIER_HALF_LIFE_MS[tier]! * 2.5);
      expect(halfLifeMs(RECENCY.maxCountedAccesses, tier)).toBe(halfLifeMs(1000, tier));
    }
    expect(halfLifeMs(5, 'core')).toBe(Number.POSITIVE_INFINITY);
  });

  it('is a Weibull curve that halves at the half-life', () => {
    expect(weibullRecency(base, base)).toBeCloseTo(0.5, 12);
    expect(weibullRecency(0, base)).toBe(1);
    expect(weibullRecency(-DAY, base)).toBe(1);
    // Heavy tail (shape < 1): at two half-lives more than a quarter survives.
    expect(weibullRecency(2 * base, base)).toBeGreaterThan(0.25);
  });

  it('never rises with age', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e12, noNaN: true }), fc.double({ min: 0, max: 1e12, noNaN: true }), (a, b) => {
        const [young, old] = a <= b ? [a, b] : [b, a];
        expect(weibullRecency(old, base)).toBeLessThanOrEqual(weibullRecency(young, base));
      }),
    );
  });

  it('grows the half-life with the access count, up to a cap', () => {
    expect(halfLifeMs(0)).toBe(base);
    expect(halfLifeMs(1)).toBe(base * 1.5);
    expect(halfLifeMs(RECENCY.maxCountedAccesses)).toBe(halfLifeMs(1000));
    const chat = { tier: 'chat' as const, createdAt: NOW - 400 * DAY, lastAccessedAt: null };
    expect(recencyFactor({ ...chat, accessCount: 4 }, NOW)).toBeGreaterThan(recencyFactor({ ...chat, accessCount: 0 }, NOW));
  });

  it('starts the clock at the last read', () => {
    const read = { tier: 'chat' as const, createdAt: NOW - 900 * DAY, lastAccessedAt: NOW - DAY, accessCount: 1 };
    expect(recencyFactor(read, NOW)).toBeGreaterThan(0.99);
  });

  it('multiplies relevance (from the fused rank), provenance and recency', () => {
    const [first, second] = scoreAll(
      [candidate({ id: 'a', tier: 'chat', createdAt: NOW - base }), candidate({ id: 'b', tier: 'engram' })],
      NOW,
    );
    expect(first!.scores.relevance).toBe(1);
    expect(first!.scores.recency).toBeCloseTo(0.5, 12);
    expect(first!.scores.score).toBeCloseTo(1 * 0.6 * 0.5, 12);
    expect(second!.scores.relevance).toBe(relevanceAtRank(1));
    // A day-old kept note (Warm) has barely faded.
    expect(second!.scores.recency).toBeGreaterThan(0.99);
    expect(second!.scores.recency).toBeLessThan(1);
    expect(second!.scores.score).toBeCloseTo(relevanceAtRank(1) * second!.scores.recency, 12);
    expect(relevanceAtRank(10)).toBe(0.5);
  });

  it('scores every memory as new with recency off (an archive read as a whole)', () => {
    const [old] = scoreAll([candidate({ id: 'a', tier: 'chat', createdAt: NOW - 3 * base })], NOW, { recency: false });
    expect(old!.scores.recency).toBe(1);
    expect(old!.scores.score).toBeCloseTo(0.6, 12);
  });

  it('writes back one read per distinct item shown, notes and chunks', () => {
    const items = [
      { record: { id: 'n1', kind: 'note' as const } },
      { record: { id: 'c1', kind: 'chunk' as const } },
      { record: { id: 'n1', kind: 'note' as const } },
      { record: { id: 'n2', kind: 'note' as const } },
    ];
    expect(accessWrites(items, NOW)).toEqual([
      { id: 'n1', kind: 'note', at: NOW },
      { id: 'c1', kind: 'chunk', at: NOW },
      { id: 'n2', kind: 'note', at: NOW },
    ]);
  });
});
