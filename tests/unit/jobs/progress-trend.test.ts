import { describe, expect, it } from 'vitest';
import { estimateProgress, ProgressTracker } from '../../../src/lib/core/jobs/progress';

/** Records `n` samples of work whose elapsed time at `done` units is `timeAt(done)` ms. */
function fed(tracker: ProgressTracker, total: number, upTo: number, timeAt: (done: number) => number, n = 200): ProgressTracker {
  for (let i = 0; i <= n; i++) {
    const done = (upTo * i) / n;
    tracker.record(timeAt(done), done);
  }
  return tracker;
}

describe('time left that follows a slowing rate (trend)', () => {
  const total = 300;
  // Each unit costs more as the work goes on: t(x) = 60 x + 0.5 x^2 (ms), the whole 63,000 ms.
  const slowing = (x: number) => 60 * x + 0.5 * x * x;

  it('extrapolates a rate that falls as the work grows, where the recent rate says too little', () => {
    const trend = fed(new ProgressTracker(600_000, 64, { trend: true }), total, total / 3, slowing);
    const recent = fed(new ProgressTracker(600_000, 64), total, total / 3, slowing);
    const actual = slowing(total) - slowing(total / 3);
    const withTrend = trend.estimate(total).etaMs!;
    const withRate = recent.estimate(total).etaMs!;
    expect(Math.abs(withTrend - actual) / actual).toBeLessThan(0.02);
    // The mean rate of the samples so far assumes the work stays as cheap as it was: far too little.
    expect(withRate).toBeLessThan(actual * 0.75);
    // The rate shown stays the recent one.
    expect(trend.estimate(total).ratePerSecond).toBeCloseTo(recent.estimate(total).ratePerSecond!, 6);
  });

  it("gives the steady rate's answer when the rate is steady", () => {
    const steady = (x: number) => 50 * x;
    const trend = fed(new ProgressTracker(30_000, 64, { trend: true }), total, 100, steady);
    expect(trend.estimate(total).etaMs).toBeCloseTo(50 * 200, -1);
  });

  it('never extrapolates a speed-up into time running out: a rate that rises is taken as steady', () => {
    // t(x) = 100 x - 0.1 x^2: each unit cheaper than the last.
    const speeding = (x: number) => 100 * x - 0.1 * x * x;
    const trend = fed(new ProgressTracker(600_000, 64, { trend: true }), total, 100, speeding);
    const eta = trend.estimate(total).etaMs!;
    expect(eta).toBeGreaterThan(0);
    // A straight line through the samples: their mean cost per unit (90 ms at these points) for the 200 units left.
    expect(eta).toBeGreaterThan(200 * 85);
    expect(eta).toBeLessThan(200 * 95);
  });

  it('uses the recent rate until there is enough history, and restarts when the work does', () => {
    const early = fed(new ProgressTracker(30_000, 64, { trend: true }), total, 5, slowing, 4);
    const plain = estimateProgress(
      [0, 1, 2, 3, 4].map((i) => ({ at: slowing((5 * i) / 4), done: (5 * i) / 4 })),
      total,
    );
    expect(early.estimate(total).etaMs).toBe(plain.etaMs);
    const restarted = fed(new ProgressTracker(30_000, 64, { trend: true }), total, 100, slowing);
    restarted.record(200_000, 0);
    expect(restarted.estimate(total).etaMs).toBeNull();
  });
});
