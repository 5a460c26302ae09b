import type { JobProgress, QueueSnapshot } from '../core/api/jobs';
import { toVaultError, vaultError, type VaultError } from '../core/errors';
import { ProgressTracker } from '../core/jobs/progress';
import type { JobProgressState, JobRecord } from '../core/records';
import type { HolderAlive, JobsRepo } from './jobs-repo';

export interface JobContext {
  readonly job: JobRecord;
  /** Aborted when the runner pauses or stops, or when the lease is lost: stop at the next batch. */
  readonly signal: AbortSignal;
  /** Reports progress (kept in memory and sent to the UI; persisted at the next checkpoint). */
  progress(done: number, total: number, unit?: string): void;
  /**
   * Persists a cursor (the new payload) and progress after a committed batch, so a retry resumes
   * from here. Throws when the lease was lost.
   */
  checkpoint(payload: unknown, progress?: JobProgressState): Promise<void>;
}

/** Does one job. Must be idempotent from its last checkpoint: a retried job may repeat a batch. */
export type JobHandler = (ctx: JobContext) => Promise<unknown>;

export interface RunnerOptions {
  jobs: JobsRepo;
  workerId: string;
  handlers: Readonly<Record<string, JobHandler>>;
  leaseMs?: number;
  heartbeatMs?: number;
  idleMs?: number;
  reapEveryMs?: number;
  clock?: () => number;
  rng?: () => number;
  holderAlive?: HolderAlive;
  onChange?: (snapshot: QueueSnapshot) => void;
  /** Least time between two snapshots sent to `onChange`. */
  notifyEveryMs?: number;
}

interface Running {
  job: JobRecord;
  controller: AbortController;
  tracker: ProgressTracker;
  progress: JobProgressState;
  stopReason: 'pause' | 'stop' | 'lease-lost' | null;
}

const LEASE_LOST: VaultError = vaultError('job/lease-expired', 'This worker lost the lease on the job; another worker will finish it.');

export class JobRunner {
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly idleMs: number;
  private readonly reapEveryMs: number;
  private readonly clock: () => number;
  private readonly rng: () => number;
  private readonly notifyEveryMs: number;
  private running: Running | null = null;
  private loop: Promise<void> | null = null;
  private active = false;
  private paused = false;
  private wake: (() => void) | null = null;
  private lastReap = Number.NEGATIVE_INFINITY;
  private lastNotify = Number.NEGATIVE_INFINITY;
  private notifyTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: RunnerOptions) {
    this.leaseMs = options.leaseMs ?? 20_000;
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
    this.idleMs = options.idleMs ?? 1_000;
    this.reapEveryMs = options.reapEveryMs ?? 5_000;
    this.clock = options.clock ?? Date.now;
    this.rng = options.rng ?? Math.random;
    this.notifyEveryMs = options.notifyEveryMs ?? 250;
  }

  get types(): string[] {
    return Object.keys(this.options.handlers);
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Starts the loop: reap, lease, run, repeat; sleeps when idle until `kick()` or `idleMs`. */
  start(): void {
    if (this.loop) return;
    this.active = true;
    this.loop = (async () => {
      while (this.active) {
        const outcome = this.paused ? 'idle' : await this.runOnce().catch(() => 'idle' as const);
        if (outcome === 'idle' && this.active) await this.sleep(this.idleMs);
      }
    })();
  }

  /** Stops after giving the current job's lease back (it will run again, from its checkpoint). */
  async stop(): Promise<void> {
    this.active = false;
    this.interrupt('stop');
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  /** Pauses: the current job stops at its next batch and goes back to the queue. */
  pause(): void {
    this.paused = true;
    this.interrupt('pause');
    this.notifySoon(true);
  }

  resume(): void {
    this.paused = false;
    this.kick();
    this.notifySoon(true);
  }

  /** Wakes an idle loop (after an enqueue in this context). */
  kick(): void {
    this.wake?.();
  }

  /** Reaps (when due), then leases and runs at most one job. */
  async runOnce(): Promise<'ran' | 'idle'> {
    const { jobs, workerId } = this.options;
    const now = this.clock();
    if (now - this.lastReap >= this.reapEveryMs) {
      this.lastReap = now;
      await jobs.reap(now, this.rng, this.options.holderAlive);
    }
    const job = await jobs.lease(workerId, now, this.leaseMs, this.types);
    if (!job) return 'idle';
    await this.execute(job);
    return 'ran';
  }

  private async execute(job: JobRecord): Promise<void> {
    const { jobs, workerId } = this.options;
    const handler = this.options.handlers[job.type]!;
    const running: Running = {
      job,
      controller: new AbortController(),
      tracker: new ProgressTracker(),
      progress: job.progress ?? { done: 0, total: 0, unit: 'items' },
      stopReason: null,
    };
    this.running = running;
    this.notifySoon(true);
    const heartbeat = setInterval(() => {
      void jobs.heartbeat(job.id, workerId, this.clock(), this.leaseMs).then(
        (held) => {
          if (!held) this.interrupt('lease-lost');
        },
        () => undefined, // a failed renewal is retried at the next beat; expiry handles the rest
      );
    }, this.heartbeatMs);
    const ctx: JobContext = {
      job,
      signal: running.controller.signal,
      progress: (done, total, unit) => {
        running.progress = { done, total, unit: unit ?? running.progress.unit };
        running.tracker.record(this.clock(), done);
        this.notifySoon();
      },
      checkpoint: async (payload, progress) => {
        if (progress) ctx.progress(progress.done, progress.total, progress.unit);
        const held = await jobs.checkpoint(job.id, workerId, this.clock(), { payload, progress: running.progress });
        if (!held) {
          this.interrupt('lease-lost');
          throw LEASE_LOST;
        }
      },
    };
    try {
      const result = await handler(ctx);
      if (running.stopReason === 'pause' || running.stopReason === 'stop') await jobs.release(job.id, workerId, this.clock());
      else await jobs.complete(job.id, workerId, this.clock(), result ?? null);
    } catch (thrown) {
      if (running.stopReason === 'pause' || running.stopReason === 'stop') await jobs.release(job.id, workerId, this.clock());
      else if (running.stopReason !== 'lease-lost')
        await jobs.fail(job.id, workerId, toVaultError(thrown, 'job/failed'), this.clock(), this.rng);
    } finally {
      clearInterval(heartbeat);
      this.running = null;
      this.notifySoon(true);
    }
  }

  private interrupt(reason: 'pause' | 'stop' | 'lease-lost'): void {
    const running = this.running;
    if (!running || running.stopReason) return;
    running.stopReason = reason;
    running.controller.abort(
      reason === 'lease-lost' ? LEASE_LOST : vaultError('job/failed', `The job was ${reason === 'pause' ? 'paused' : 'stopped'}.`),
    );
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  /**
   * The job running now and its progress, from memory (null when none): what a status line needs
   * without `snapshot`'s counts, which walk the jobs table (thousands of rows after a heavy import).
   */
  runningNow(): JobProgress | null {
    if (!this.running) return null;
    const { job, progress, tracker } = this.running;
    const estimate = tracker.estimate(progress.total);
    return {
      jobId: job.id,
      type: job.type,
      done: progress.done,
      total: progress.total,
      unit: progress.unit,
      ratePerSecond: estimate.ratePerSecond,
      etaMs: estimate.etaMs,
    };
  }

  /** The current state of the queue as the UI draws it. */
  async snapshot(): Promise<QueueSnapshot> {
    const { jobs } = this.options;
    const [counts, dead] = await Promise.all([jobs.counts(), jobs.list('dead', 20)]);
    const now = this.runningNow();
    return {
      at: this.clock(),
      paused: this.paused,
      counts,
      running: now ? [now] : [],
      dead: dead.map(({ id, type, attempts, error, updatedAt }) => ({ id, type, attempts, error, updatedAt })),
    };
  }

  /** Sends a snapshot to `onChange`, at most every `notifyEveryMs` (immediately when `now`). */
  private notifySoon(now = false): void {
    const onChange = this.options.onChange;
    if (!onChange) return;
    const send = () => {
      this.notifyTimer = null;
      this.lastNotify = this.clock();
      this.snapshot().then(onChange, () => undefined);
    };
    if (now || this.clock() - this.lastNotify >= this.notifyEveryMs) {
      if (this.notifyTimer) clearTimeout(this.notifyTimer);
      send();
    } else if (!this.notifyTimer) {
      this.notifyTimer = setTimeout(send, this.notifyEveryMs);
    }
  }
}
