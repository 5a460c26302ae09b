import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareHlc,
  encodeHlc,
  HLC_MAX_COUNTER,
  HybridClock,
  initialHlc,
  parseHlc,
  receive,
  tick,
  type Hlc,
} from '../../../src/lib/core/vaultfile/hlc';
import { runs } from '../../factories/vault-runs';

const nodeArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
const hlcArb: fc.Arbitrary<Hlc> = fc.record({
  wall: fc.integer({ min: 0, max: 4_000_000_000_000 }),
  counter: fc.integer({ min: 0, max: HLC_MAX_COUNTER }),
  node: nodeArb,
});

function tupleCompare(a: Hlc, b: Hlc): number {
  if (a.wall !== b.wall) return a.wall < b.wall ? -1 : 1;
  if (a.counter !== b.counter) return a.counter < b.counter ? -1 : 1;
  return a.node < b.node ? -1 : a.node > b.node ? 1 : 0;
}

describe('hybrid logical clock', () => {
  it('has the documented string format', () => {
    expect(encodeHlc({ wall: 1_700_000_000_000, counter: 42, node: 'd3v1ce' })).toBe('1700000000000:002a:d3v1ce');
    expect(encodeHlc({ wall: 1, counter: 0, node: 'dev' })).toBe('0000000000001:0000:dev');
    expect(parseHlc('1700000000000:002a:d3v1ce')).toEqual({ wall: 1_700_000_000_000, counter: 42, node: 'd3v1ce' });
    for (const bad of [
      '',
      '170000000000:0000:a',
      '1700000000000:00:a',
      '1700000000000:0000:',
      '1700000000000:0000:a:b',
      '1700000000000:000G:a',
    ]) {
      expect(parseHlc(bad)).toBeNull();
    }
    expect(() => encodeHlc({ wall: 1, counter: 0, node: 'has space' })).toThrow();
    expect(() => encodeHlc({ wall: 1, counter: HLC_MAX_COUNTER + 1, node: 'a' })).toThrow();
  });

  it('round-trips and orders as strings exactly as the (wall, counter, node) tuple', () => {
    fc.assert(
      fc.property(hlcArb, hlcArb, (a, b) => {
        expect(parseHlc(encodeHlc(a))).toEqual(a);
        expect(Math.sign(compareHlc(encodeHlc(a), encodeHlc(b)))).toBe(tupleCompare(a, b));
      }),
      runs(),
    );
  });

  it('is a total order: antisymmetric and transitive', () => {
    fc.assert(
      fc.property(hlcArb, hlcArb, hlcArb, (x, y, z) => {
        const [a, b, c] = [x, y, z].map(encodeHlc) as [string, string, string];
        expect(Math.sign(compareHlc(a, b))).toBe(-Math.sign(compareHlc(b, a)));
        expect(compareHlc(a, b) === 0).toBe(a === b);
        if (compareHlc(a, b) <= 0 && compareHlc(b, c) <= 0) expect(compareHlc(a, c)).toBeLessThanOrEqual(0);
      }),
      runs(),
    );
  });

  it('is strictly monotonic through any mix of local events and received stamps, even when the wall clock goes backwards', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('tick' as const), now: fc.integer({ min: 0, max: 5_000 }) }),
      fc.record({
        kind: fc.constant('receive' as const),
        now: fc.integer({ min: 0, max: 5_000 }),
        remote: hlcArb.map((h) => ({ ...h, wall: h.wall % 6_000 })),
      }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        let clock = initialHlc('local');
        let previous = encodeHlc(clock);
        for (const s of steps) {
          clock = s.kind === 'tick' ? tick(clock, s.now) : receive(clock, s.remote, s.now);
          const stamp = encodeHlc(clock);
          expect(compareHlc(stamp, previous)).toBeGreaterThan(0);
          expect(clock.wall).toBeGreaterThanOrEqual(s.now);
          if (s.kind === 'receive') expect(tupleCompare(clock, { ...s.remote, node: clock.node })).toBeGreaterThan(0);
          previous = stamp;
        }
      }),
      runs(),
    );
  });

  it('follows the physical clock when it moves forward', () => {
    const clock = tick(initialHlc('a'), 1_000);
    expect(clock).toEqual({ wall: 1_000, counter: 0, node: 'a' });
    expect(tick(clock, 1_000)).toEqual({ wall: 1_000, counter: 1, node: 'a' });
    expect(tick(clock, 999)).toEqual({ wall: 1_000, counter: 1, node: 'a' });
    expect(receive(clock, { wall: 5_000, counter: 7, node: 'b' }, 2_000)).toEqual({ wall: 5_000, counter: 8, node: 'a' });
    expect(receive(clock, { wall: 5_000, counter: 7, node: 'b' }, 9_000)).toEqual({ wall: 9_000, counter: 0, node: 'a' });
  });

  it('moves the logical wall ahead instead of wrapping the counter in a burst', () => {
    let clock: Hlc = { wall: 1_000, counter: HLC_MAX_COUNTER, node: 'a' };
    clock = tick(clock, 1_000);
    expect(clock).toEqual({ wall: 1_001, counter: 0, node: 'a' });
    const stamps: string[] = [];
    let c = initialHlc('bulk');
    for (let i = 0; i < 200_000; i++) {
      c = tick(c, 5_000);
      if (i % 1_000 === 0) stamps.push(encodeHlc(c));
    }
    expect([...stamps].sort()).toEqual(stamps);
    expect(new Set(stamps).size).toBe(stamps.length);
  });

  it('HybridClock stamps with the injected time and observes remote stamps', () => {
    let now = 10;
    const clock = new HybridClock('dev', () => now);
    const a = clock.stamp();
    const b = clock.stamp();
    expect(a).toBe('0000000000010:0000:dev');
    expect(b).toBe('0000000000010:0001:dev');
    clock.observe('0000000000500:0003:other');
    now = 11;
    expect(clock.stamp()).toBe('0000000000500:0005:dev');
    expect(new HybridClock('dev', () => 0, '0000000000700:0000:dev').stamp()).toBe('0000000000700:0001:dev');
  });

  it('HybridClock does not adopt a stamp from far in the future (a broken clock or a crafted file)', () => {
    const now = 1_700_000_000_000;
    const clock = new HybridClock('dev', () => now);
    expect(clock.observe(encodeHlc({ wall: now + 25 * 3_600_000, counter: 0, node: 'bad' }))).toBe(false);
    expect(clock.observe('not a stamp')).toBe(false);
    expect(clock.stamp()).toBe(encodeHlc({ wall: now, counter: 0, node: 'dev' }));
    expect(clock.observe(encodeHlc({ wall: now + 60_000, counter: 4, node: 'ok' }))).toBe(true);
    expect(clock.stamp()).toBe(encodeHlc({ wall: now + 60_000, counter: 6, node: 'dev' }));
  });
});
