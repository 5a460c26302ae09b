/**
 * One circuit breaker type for every model stage (fit-gate, decomposition, intent, reranker,
 * extraction, summaries). N consecutive failures or timeouts open it for a recovery period (the
 * seeds: 3 failures, 600 s); while open the stage is bypassed at once (fail-open for the gate, the
 * model-free fallback for the others) instead of waiting for a timeout on every call. When the
 * period is over, one call probes the model (half-open): success closes the breaker, failure opens
 * it for another period. A call that ends neither way (cancelled by a newer query) counts as
 * nothing. Time comes in as `now`, so every rule is tested with a fake clock.
 */

export const BREAKER_DEFAULTS = { failureThreshold: 3, recoveryMs: 600_000 } as const;

export type ModelStage = 'fit-gate' | 'decompose' | 'intent' | 'rerank' | 'extraction' | 'summaries' | 'hints';

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerStatus {
  stage: ModelStage;
  state: BreakerState;
  consecutiveFailures: number;
  failureThreshold: number;
  /** When it opened last (ms since epoch); null when it never did since the last reset. */
  openedAt: number | null;
  /** Open: when the next call may probe the model; null otherwise. */
  retryAt: number | null;
  /** The last failure's reason, for the status line. */
  lastFailure: string | null;
  /** How often it opened since the last reset (the evaluation reports it). */
  timesOpened: number;
}

export type Admission = { allowed: true; probe: boolean } | { allowed: false; retryAt: number; status: BreakerStatus };

export interface BreakerOptions {
  now: () => number;
  failureThreshold?: number;
  recoveryMs?: number;
}

export class CircuitBreaker {
  private state: BreakerState = 'closed';
  private failures = 0;
  private openedAt: number | null = null;
  private retryAt: number | null = null;
  private lastFailure: string | null = null;
  private opened = 0;
  private probing = false;
  private readonly threshold: number;
  private readonly recoveryMs: number;

  constructor(
    readonly stage: ModelStage,
    private readonly options: BreakerOptions,
  ) {
    this.threshold = Math.max(1, options.failureThreshold ?? BREAKER_DEFAULTS.failureThreshold);
    this.recoveryMs = Math.max(0, options.recoveryMs ?? BREAKER_DEFAULTS.recoveryMs);
  }

  /** May the stage call its model now? Open: no, until `retryAt`; then one probe at a time. */
  admit(): Admission {
    if (this.state === 'closed') return { allowed: true, probe: false };
    const now = this.options.now();
    if (this.state === 'open' && this.retryAt !== null && now >= this.retryAt) this.state = 'half-open';
    if (this.state === 'half-open' && !this.probing) {
      this.probing = true;
      return { allowed: true, probe: true };
    }
    return { allowed: false, retryAt: this.retryAt ?? now, status: this.status() };
  }

  succeeded(): void {
    this.state = 'closed';
    this.failures = 0;
    this.retryAt = null;
    this.probing = false;
  }

  /** A failure or a timeout: the threshold-th in a row (or a failed probe) opens the breaker. */
  failed(reason: string): void {
    this.failures += 1;
    this.lastFailure = reason;
    const probeFailed = this.state === 'half-open';
    this.probing = false;
    if (probeFailed || (this.state === 'closed' && this.failures >= this.threshold)) this.open();
  }

  /** The call ended neither way (cancelled): nothing is learned; a probe slot is freed. */
  released(): void {
    this.probing = false;
  }

  /** Closed and forgotten (a different model was lent). */
  reset(): void {
    this.succeeded();
    this.openedAt = null;
    this.lastFailure = null;
    this.opened = 0;
  }

  status(): BreakerStatus {
    return {
      stage: this.stage,
      state: this.state,
      consecutiveFailures: this.failures,
      failureThreshold: this.threshold,
      openedAt: this.openedAt,
      retryAt: this.state === 'closed' ? null : this.retryAt,
      lastFailure: this.lastFailure,
      timesOpened: this.opened,
    };
  }

  private open(): void {
    const now = this.options.now();
    this.state = 'open';
    this.openedAt = now;
    this.retryAt = now + this.recoveryMs;
    this.opened += 1;
  }
}

const STAGE_NAMES: Record<ModelStage, string> = {
  'fit-gate': 'fit-gate',
  decompose: 'decomposition',
  intent: 'intent',
  rerank: 'reranker',
  extraction: 'extraction',
  summaries: 'summary',
  hints: 'hints',
};

function inWords(ms: number): string {
  if (ms < 60_000) return `${Math.max(1, Math.ceil(ms / 1000))} s`;
  return `${Math.ceil(ms / 60_000)} min`;
}

/**
 * What the status line says about a breaker that is not closed; null while it is closed. With
 * `clockTime` (the screen's local time format) it names the time of the retry as well.
 */
export function breakerMessage(status: BreakerStatus, now: number, clockTime?: (ms: number) => string): string | null {
  if (status.state === 'closed') return null;
  const stage = STAGE_NAMES[status.stage];
  const why = status.lastFailure ? ` (last: ${status.lastFailure})` : '';
  const head = `the ${stage} model is bypassed after ${status.consecutiveFailures} failures in a row${why}`;
  if (status.state === 'half-open') return `${head}; one call is probing it now`;
  const retryAt = status.retryAt ?? now;
  const wait = retryAt - now;
  if (wait <= 0) return `${head}; the next call probes it`;
  return clockTime ? `${head}; it retries at ${clockTime(retryAt)} (in ${inWords(wait)})` : `${head}; it retries in ${inWords(wait)}`;
}

/** One breaker per model stage, shared by recall and extraction so the status line sees them all. */
export class StageBreakers {
  private readonly breakers = new Map<ModelStage, CircuitBreaker>();

  constructor(private readonly options: BreakerOptions) {}

  get(stage: ModelStage): CircuitBreaker {
    let breaker = this.breakers.get(stage);
    if (!breaker) {
      breaker = new CircuitBreaker(stage, this.options);
      this.breakers.set(stage, breaker);
    }
    return breaker;
  }

  /** Every breaker that is not closed, for a status line. */
  tripped(): BreakerStatus[] {
    return [...this.breakers.values()].map((b) => b.status()).filter((s) => s.state !== 'closed');
  }

  all(): BreakerStatus[] {
    return [...this.breakers.values()].map((b) => b.status());
  }

  resetAll(): void {
    for (const b of this.breakers.values()) b.reset();
  }
}
