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

/** Keeps the last samples inside a time window, so the rate follows the current speed. */
export class ProgressTracker {
  private samples: ProgressSample[] = [];
  constructor(
    private readonly windowMs = 30_000,
    private readonly maxSamples = 64,
  ) {}

  record(at: number, done: number): void {
    const last = this.samples[this.samples.length - 1];
    if (last && done < last.done) this.samples = []; // restarted or reset: old samples lie
    this.samples.push({ at, done });
    const cutoff = at - this.windowMs;
    while (this.samples.length > 2 && (this.samples[0]!.at < cutoff || this.samples.length > this.maxSamples)) this.samples.shift();
  }

  estimate(total: number): ProgressEstimate {
    return estimateProgress(this.samples, total);
  }
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
