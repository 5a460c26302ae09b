import Dexie from 'dexie';
import type { JobSpec, QueueCounts } from '../core/api/jobs';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from '../core/jobs/backoff';
import { newId } from '../core/ids';
import type { JobProgressState, JobRecord, JobStatus } from '../core/records';
import type { VaultError } from '../core/errors';
import type { VaultDb } from './schema';
import { runTx, withStoreTimeout, type TxOptions } from './transaction';

export const DEFAULT_MAX_ATTEMPTS = 5;

function newJob(spec: JobSpec, now: number): JobRecord {
  return {
    id: newId('job'),
    type: spec.type,
    payload: spec.payload,
    status: 'pending',
    priority: spec.priority ?? 100,
    attempts: 0,
    maxAttempts: spec.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    runAfter: spec.runAfter ?? now,
    leasedBy: null,
    leasedAt: null,
    leaseUntil: null,
    dedupeKey: spec.dedupeKey ?? null,
    progress: null,
    error: null,
    result: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Tells whether the holder of a lease still lives (e.g. a Web Lock it holds); unknown -> true. */
export type HolderAlive = (workerId: string) => boolean | Promise<boolean>;

/**
 * The persistent job queue. Leasing happens inside one read-write transaction over `jobs`, and
 * IndexedDB serializes read-write transactions on the same store across every connection (tabs,
 * workers), so no two workers can lease the same job.
 */
export class JobsRepo {
  constructor(
    private readonly db: VaultDb,
    private readonly tx: TxOptions = {},
    private readonly backoff: BackoffPolicy = DEFAULT_BACKOFF,
  ) {}

  /**
   * Queues a job; with a `dedupeKey`, returns the pending job of that key instead. A job of that key
   * that is already running does not absorb the new one: it may have read its work before the change
   * that queued this one (a model chosen while embedding ran), so a successor waits behind it.
   */
  async enqueue(spec: JobSpec, now: number): Promise<JobRecord> {
    const [job] = await this.enqueueAll([spec], now, `queueing a ${spec.type} job`);
    return job!;
  }

  /**
   * Queues several jobs in one transaction, in order, with `enqueue`'s dedupe rule (a spec whose
   * key has a pending job returns that job; two specs with one key in the list give one job).
   * One transaction matters after a large import: thousands of single-job transactions queue
   * behind the index worker's transactions, one wait each.
   */
  enqueueAll(specs: readonly JobSpec[], now: number, label = `queueing ${specs.length} jobs`): Promise<JobRecord[]> {
    if (specs.length === 0) return Promise.resolve([]);
    return runTx(
      this.db,
      'rw',
      this.db.jobs,
      async () => {
        const keys = [...new Set(specs.flatMap((s) => (s.dedupeKey ? [s.dedupeKey] : [])))];
        const live = new Map<string, JobRecord>();
        if (keys.length) {
          const rows = await this.db.jobs.where('dedupeKey').anyOf(keys).toArray();
          for (const row of rows) if (row.status === 'pending' && row.dedupeKey && !live.has(row.dedupeKey)) live.set(row.dedupeKey, row);
        }
        const out: JobRecord[] = [];
        const added: JobRecord[] = [];
        for (const spec of specs) {
          const existing = spec.dedupeKey ? live.get(spec.dedupeKey) : undefined;
          if (existing) {
            out.push(existing);
            continue;
          }
          const job = newJob(spec, now);
          if (spec.dedupeKey) live.set(spec.dedupeKey, job);
          added.push(job);
          out.push(job);
        }
        if (added.length) await this.db.jobs.bulkAdd(added);
        return out;
      },
      { ...this.tx, label },
    );
  }

  /**
   * Leases the next runnable job (pending, due, lowest priority number, oldest first) for
   * `workerId`. Counts the attempt now, so a worker that dies mid-job still used one.
   */
  lease(workerId: string, now: number, leaseMs: number, types?: readonly string[]): Promise<JobRecord | null> {
    return runTx(
      this.db,
      'rw',
      this.db.jobs,
      async () => {
        const due = await this.db.jobs
          .where('[status+runAfter]')
          .between(['pending', Dexie.minKey], ['pending', now], true, true)
          .toArray();
        const candidates = types ? due.filter((j) => types.includes(j.type)) : due;
        candidates.sort((a, b) => a.priority - b.priority || a.runAfter - b.runAfter || a.createdAt - b.createdAt);
        const next = candidates[0];
        if (!next) return null;
        const leased: JobRecord = {
          ...next,
          status: 'leased',
          attempts: next.attempts + 1,
          leasedBy: workerId,
          leasedAt: now,
          leaseUntil: now + leaseMs,
          updatedAt: now,
        };
        await this.db.jobs.put(leased);
        return leased;
      },
      { ...this.tx, label: 'leasing a job' },
    );
  }

  /** Runs `fn` on the job only if `workerId` still holds its lease; returns false otherwise. */
  private async mutateHeld(jobId: string, workerId: string, label: string, fn: (job: JobRecord) => JobRecord): Promise<boolean> {
    return runTx(
      this.db,
      'rw',
      this.db.jobs,
      async () => {
        const job = await this.db.jobs.get(jobId);
        if (!job || job.status !== 'leased' || job.leasedBy !== workerId) return false;
        await this.db.jobs.put(fn(job));
        return true;
      },
      { ...this.tx, label },
    );
  }

  /** Extends the lease; false means the lease was lost (reaped) and the worker must stop. */
  heartbeat(jobId: string, workerId: string, now: number, leaseMs: number): Promise<boolean> {
    return this.mutateHeld(jobId, workerId, 'renewing a job lease', (job) => ({ ...job, leaseUntil: now + leaseMs, updatedAt: now }));
  }

  /** Saves progress and, optionally, a new payload (a cursor), so a retried job resumes from here. */
  checkpoint(jobId: string, workerId: string, now: number, update: { progress?: JobProgressState; payload?: unknown }): Promise<boolean> {
    return this.mutateHeld(jobId, workerId, 'saving job progress', (job) => ({
      ...job,
      progress: update.progress ?? job.progress,
      payload: update.payload === undefined ? job.payload : update.payload,
      updatedAt: now,
    }));
  }

  complete(jobId: string, workerId: string, now: number, result: unknown = null): Promise<boolean> {
    return this.mutateHeld(jobId, workerId, 'finishing a job', (job) => ({
      ...job,
      status: 'done',
      leasedBy: null,
      leaseUntil: null,
      error: null,
      result,
      updatedAt: now,
    }));
  }

  /** Records a failure: back to pending after a backoff, or `dead` once attempts are used up. */
  fail(jobId: string, workerId: string, error: VaultError, now: number, rng: () => number): Promise<boolean> {
    return this.mutateHeld(jobId, workerId, 'recording a job failure', (job) => this.afterFailure(job, error, now, rng));
  }

  /** Gives a lease back without counting the attempt (pause, shutdown): the job runs again later. */
  release(jobId: string, workerId: string, now: number): Promise<boolean> {
    return this.mutateHeld(jobId, workerId, 'releasing a job', (job) => ({
      ...job,
      status: 'pending',
      attempts: Math.max(0, job.attempts - 1),
      leasedBy: null,
      leaseUntil: null,
      runAfter: now,
      updatedAt: now,
    }));
  }

  private afterFailure(job: JobRecord, error: VaultError, now: number, rng: () => number): JobRecord {
    const cleared = { ...job, leasedBy: null, leaseUntil: null, updatedAt: now, error: { code: error.code, message: error.message } };
    if (job.attempts >= job.maxAttempts) return { ...cleared, status: 'dead' };
    return { ...cleared, status: 'pending', runAfter: now + backoffDelay(job.attempts, rng, this.backoff) };
  }

  /**
   * Returns expired leases (and leases whose holder is known dead) to the queue, counting the lost
   * attempt as a failure. Returns how many jobs it reclaimed.
   */
  async reap(now: number, rng: () => number, holderAlive?: HolderAlive): Promise<number> {
    const leased = await withStoreTimeout(this.db.jobs.where('status').equals('leased').toArray(), {
      ...this.tx,
      label: 'looking for stale jobs',
    });
    const orphaned = new Set<string>();
    for (const job of leased) {
      const expired = (job.leaseUntil ?? 0) <= now;
      if (expired || (holderAlive && job.leasedBy && !(await holderAlive(job.leasedBy)))) orphaned.add(job.id);
    }
    if (orphaned.size === 0) return 0;
    return runTx(
      this.db,
      'rw',
      this.db.jobs,
      async () => {
        let reclaimed = 0;
        for (const id of orphaned) {
          const job = await this.db.jobs.get(id);
          if (!job || job.status !== 'leased') continue; // finished meanwhile
          const expired = (job.leaseUntil ?? 0) <= now;
          const why = expired ? 'its lease expired (the worker stopped answering)' : 'the worker holding it is gone';
          const error: VaultError = { code: 'job/lease-expired', message: `The job was interrupted: ${why}.` };
          await this.db.jobs.put(this.afterFailure(job, error, now, rng));
          reclaimed++;
        }
        return reclaimed;
      },
      { ...this.tx, label: 'reclaiming stale jobs' },
    );
  }

  /** A person's "try again" on a dead job: a fresh set of attempts. */
  retry(jobId: string, now: number): Promise<boolean> {
    return runTx(
      this.db,
      'rw',
      this.db.jobs,
      async () => {
        const job = await this.db.jobs.get(jobId);
        if (!job || job.status !== 'dead') return false;
        await this.db.jobs.put({ ...job, status: 'pending', attempts: 0, runAfter: now, error: null, updatedAt: now });
        return true;
      },
      { ...this.tx, label: 'retrying a job' },
    );
  }

  get(jobId: string): Promise<JobRecord | undefined> {
    return withStoreTimeout(this.db.jobs.get(jobId), { ...this.tx, label: 'reading a job' });
  }

  list(status: JobStatus, limit = 100): Promise<JobRecord[]> {
    return withStoreTimeout(this.db.jobs.where('status').equals(status).limit(limit).toArray(), { ...this.tx, label: 'listing jobs' });
  }

  async counts(): Promise<QueueCounts> {
    const statuses: JobStatus[] = ['pending', 'leased', 'done', 'dead'];
    const values = await withStoreTimeout(Promise.all(statuses.map((s) => this.db.jobs.where('status').equals(s).count())), {
      ...this.tx,
      label: 'counting jobs',
    });
    return { pending: values[0] ?? 0, leased: values[1] ?? 0, done: values[2] ?? 0, dead: values[3] ?? 0 };
  }

  /** Jobs of these types in one status, counted from the [type+status+updatedAt] index (no job is read). */
  /** The first pending job of these types whose last attempt failed (it waits out its backoff), or null. */
  async firstFailing(types: readonly string[]): Promise<JobRecord | null> {
    const found = await withStoreTimeout(
      Promise.all(
        types.map((type) =>
          this.db.jobs
            .where('[type+status+updatedAt]')
            .between([type, 'pending', Dexie.minKey], [type, 'pending', Dexie.maxKey], true, true)
            .filter((job) => job.error !== null)
            .first(),
        ),
      ),
      { ...this.tx, label: 'reading failed jobs' },
    );
    return found.find((job) => job !== undefined) ?? null;
  }

  async countOfTypes(types: readonly string[], status: JobStatus): Promise<number> {
    const counts = await withStoreTimeout(
      Promise.all(
        types.map((type) =>
          this.db.jobs
            .where('[type+status+updatedAt]')
            .between([type, status, Dexie.minKey], [type, status, Dexie.maxKey], true, true)
            .count(),
        ),
      ),
      { ...this.tx, label: 'counting jobs' },
    );
    return counts.reduce((sum, n) => sum + n, 0);
  }

  /** Removes finished jobs older than `before` so the table does not grow without bound. */
  purgeDone(before: number): Promise<number> {
    return runTx(
      this.db,
      'rw',
      this.db.jobs,
      () =>
        this.db.jobs
          .where('status')
          .equals('done')
          .filter((j) => j.updatedAt < before)
          .delete(),
      {
        ...this.tx,
        label: 'clearing finished jobs',
      },
    );
  }
}
