/** Rate and time-left estimates for long work, from progress samples. Pure: time comes in. */

export interface ProgressSample {
  at: number;
  done: number;
}

export interface ProgressEstimate {
  done: number;
  total: number;
  /** Units per second over the recent window; null until two samples exist. */
  ratePerSecond: number | null;
  /** Milliseconds left at the current rate; null when unknown. */
  etaMs: number | null;
  fraction: number;
}

export interface TrackerOptions {
  /**
   * Time left from the trend of the whole history, not the recent rate alone: elapsed time fitted
   * against work done with a quadratic (least squares), so a rate that keeps falling as the work
   * grows is extrapolated instead of assumed to hold. A heavy archive's rows are written more slowly
   * as the database grows (README, "Where the time goes"): on one app import of the 300 MB archive
   * the recent rate said 43 s left at a third where 86 s were; replayed on that run's samples this
   * fit says 57 s there (error 0.52 -> 0.34) and on a 100 MB import's it is as good as the rate
   * (0.12 either way). Measured in the app afterwards (`import.*.app.eta_error_at_third`, the same
   * day): 300 MB 0.50 -> 0.41 (one run each), 100 MB 0.074 (median of 3). A fit that curves down
   * (each unit cheaper) is replaced by a straight line: a speed-up is never extrapolated.
   */
  trend?: boolean;
}

/** At most this many samples of the whole history are kept for the trend (thinned by halves). */
const TREND_HISTORY = 512;
/** The trend needs this many samples and this share of the work done; before, the recent rate answers. */
const TREND_MIN_SAMPLES = 20;
const TREND_MIN_FRACTION = 0.03;

/** Keeps the last samples inside a time window, so the rate follows the current speed. */
export class ProgressTracker {
  private samples: ProgressSample[] = [];
  private history: ProgressSample[] = [];
  constructor(
    private readonly windowMs = 30_000,
    private readonly maxSamples = 64,
    private readonly options: TrackerOptions = {},
  ) {}

  /** A tracker whose time left follows the trend of the whole history (TrackerOptions.trend). */
  static withTrend(): ProgressTracker {
    return new ProgressTracker(undefined, undefined, { trend: true });
  }

  record(at: number, done: number): void {
    const last = this.samples[this.samples.length - 1];
    if (last && done < last.done) {
      // Restarted or reset: old samples lie.
      this.samples = [];
      this.history = [];
    }
    this.samples.push({ at, done });
    const cutoff = at - this.windowMs;
    while (this.samples.length > 2 && (this.samples[0]!.at < cutoff || this.samples.length > this.maxSamples)) this.samples.shift();
    if (this.options.trend) {
      this.history.push({ at, done });
      if (this.history.length > TREND_HISTORY) this.history = this.history.filter((_, i, all) => i % 2 === 0 || i === all.length - 1);
    }
  }

  estimate(total: number): ProgressEstimate {
    const recent = estimateProgress(this.samples, total);
    if (!this.options.trend || recent.etaMs === null) return recent;
    const etaMs = trendEtaMs(this.history, total);
    return etaMs === null ? recent : { ...recent, etaMs };
  }
}

/**
 * Time left by the trend of `history` (see TrackerOptions.trend): t = c + a u + b u^2 with u the share
 * of `total` done, fitted by least squares; null without enough history.
 */
export function trendEtaMs(history: readonly ProgressSample[], total: number): number | null {
  const last = history[history.length - 1];
  if (!last || total <= 0 || history.length < TREND_MIN_SAMPLES || last.done / total < TREND_MIN_FRACTION) return null;
  const t0 = history[0]!.at;
  const points = history.map((s) => ({ u: s.done / total, t: s.at - t0 }));
  const u = Math.min(1, last.done / total);
  const quadratic = leastSquares(points, 3);
  if (quadratic && quadratic[2]! >= 0) return Math.max(0, Math.round(quadratic[1]! * (1 - u) + quadratic[2]! * (1 - u * u)));
  const line = leastSquares(points, 2);
  return line && line[1]! > 0 ? Math.round(line[1]! * (1 - u)) : null;
}

/** Coefficients [c0, c1, ...] of the polynomial of `terms` terms in u that best fits t; null when singular. */
function leastSquares(points: readonly { u: number; t: number }[], terms: number): number[] | null {
  // Normal equations: (X^T X) beta = X^T t, solved by Gaussian elimination with partial pivoting.
  const m = Array.from({ length: terms }, () => new Array<number>(terms + 1).fill(0));
  for (const { u, t } of points) {
    const row = Array.from({ length: terms }, (_, i) => u ** i);
    for (let i = 0; i < terms; i++) {
      for (let j = 0; j < terms; j++) m[i]![j]! += row[i]! * row[j]!;
      m[i]![terms]! += row[i]! * t;
    }
  }
  for (let col = 0; col < terms; col++) {
    let pivot = col;
    for (let r = col + 1; r < terms; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-12) return null;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = 0; r < terms; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / m[col]![col]!;
      for (let c = col; c <= terms; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return m.map((row, i) => row[terms]! / row[i]!);
}

export function estimateProgress(samples: readonly ProgressSample[], total: number): ProgressEstimate {
  const last = samples[samples.length - 1];
  const done = last?.done ?? 0;
  const fraction = total > 0 ? Math.min(1, done / total) : 0;
  const first = samples[0];
  if (!first || !last || last.at <= first.at || last.done <= first.done) {
    return { done, total, ratePerSecond: null, etaMs: null, fraction };
  }
  const ratePerSecond = ((last.done - first.done) * 1000) / (last.at - first.at);
  const remaining = Math.max(0, total - done);
  return { done, total, ratePerSecond, etaMs: Math.round((remaining / ratePerSecond) * 1000), fraction };
}

/** "3 min 20 s" style duration for the UI. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return 'estimating…';
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
