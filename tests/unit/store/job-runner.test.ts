import { afterEach, describe, expect, it } from 'vitest';
import type { QueueSnapshot } from '../../../src/lib/core/api/jobs';
import { JobRunner, type JobHandler } from '../../../src/lib/store/job-runner';
import { JobsRepo } from '../../../src/lib/store/jobs-repo';
import type { VaultDb } from '../../../src/lib/store/schema';
import { freshDb, manualClock, secondConnection } from '../../factories/db';

const opened: VaultDb[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

interface BatchCursor {
  next: number;
  total: number;
}

/**
 * A handler in the shape real ones take: it writes one batch per transaction (rows keyed by
 * batch number, so a repeated batch overwrites instead of duplicating) and checkpoints its cursor.
 * `onBatch` lets a test stop the world between two batches.
 */
function batchWriter(db: VaultDb, onBatch?: (n: number) => Promise<void>): JobHandler {
  return async (ctx) => {
    let cursor = ctx.job.payload as BatchCursor;
    while (cursor.next < cursor.total) {
      if (ctx.signal.aborted) return;
      const n = cursor.next;
      await db.settings.put({ key: `batch-${n}`, value: { writtenBy: ctx.job.leasedBy } });
      cursor = { ...cursor, next: n + 1 };
      await ctx.checkpoint(cursor, { done: cursor.next, total: cursor.total, unit: 'batches' });
      await onBatch?.(n);
    }
    return { batches: cursor.total };
  };
}

describe('JobRunner', () => {
  it('runs a job to completion and reports progress with rate and time left', async () => {
    const db = freshDb();
    opened.push(db);
    const clock = manualClock();
    const snapshots: QueueSnapshot[] = [];
    const runner = new JobRunner({
      jobs: new JobsRepo(db),
      workerId: 'w1',
      clock: clock.now,
      notifyEveryMs: 0,
      handlers: { write: batchWriter(db, async () => clock.advance(1000)) },
      onChange: (s) => snapshots.push(s),
    });
    const job = await new JobsRepo(db).enqueue({ type: 'write', payload: { next: 0, total: 5 } }, clock.now());
    expect(await runner.runOnce()).toBe('ran');
    await new Promise((r) => setTimeout(r, 20)); // let the last snapshot arrive

    const done = await db.jobs.get(job.id);
    expect(done?.status).toBe('done');
    expect(done?.result).toEqual({ batches: 5 });
    expect(await db.settings.count()).toBe(5);
    const withRate = snapshots.flatMap((s) => s.running).filter((r) => r.ratePerSecond !== null);
    expect(withRate.length).toBeGreaterThan(0);
    expect(withRate[0]!.ratePerSecond).toBeCloseTo(1, 5); // one batch per (fake) second
    expect(withRate[0]!.etaMs).toBeGreaterThan(0);
    expect(snapshots[snapshots.length - 1]!.counts.done).toBe(1);
    expect(await runner.runOnce()).toBe('idle');
  });

  it('runningNow gives the running job and its progress from memory, without reading the jobs table', async () => {
    const db = freshDb();
    opened.push(db);
    const clock = manualClock();
    const repo = new JobsRepo(db);
    const seen: ReturnType<JobRunner['runningNow']>[] = [];
    let tableReads = 0;
    // Any read of the jobs' counts during the job would show here.
    const counted = Object.assign(Object.create(repo) as JobsRepo, {
      counts: () => {
        tableReads++;
        return repo.counts();
      },
    });
    const runner: JobRunner = new JobRunner({
      jobs: counted,
      workerId: 'w1',
      clock: clock.now,
      handlers: {
        write: batchWriter(db, async () => {
          clock.advance(1000);
          seen.push(runner.runningNow());
        }),
      },
    });
    const job = await repo.enqueue({ type: 'write', payload: { next: 0, total: 3 } }, clock.now());
    expect(runner.runningNow()).toBeNull();
    expect(await runner.runOnce()).toBe('ran');
    expect(seen.map((p) => p && { jobId: p.jobId, type: p.type, done: p.done, total: p.total, unit: p.unit })).toEqual(
      [1, 2, 3].map((done) => ({ jobId: job.id, type: 'write', done, total: 3, unit: 'batches' })),
    );
    expect(seen[1]!.ratePerSecond).toBeCloseTo(1, 5);
    expect(runner.runningNow()).toBeNull();
    expect(tableReads).toBe(0);
  });

  it('a worker that dies mid-job leaves the job to be retried from its checkpoint, data consistent', async () => {
    const db = freshDb();
    const other = secondConnection(db);
    opened.push(db, other);
    const clock = manualClock();
    const repo = new JobsRepo(db);
    const job = await repo.enqueue({ type: 'write', payload: { next: 0, total: 8 } }, clock.now());

    // Worker A writes three batches, then "dies": its handler never returns, its heartbeats stop.
    let killA: () => void = () => undefined;
    const aDied = new Promise<void>((resolve) => (killA = resolve));
    const forever = new Promise<void>(() => undefined);
    const runnerA = new JobRunner({
      jobs: repo,
      workerId: 'A',
      clock: clock.now,
      heartbeatMs: 3_600_000,
      leaseMs: 10_000,
      handlers: {
        write: batchWriter(db, async (n) => {
          if (n === 2) {
            killA();
            await forever;
          }
        }),
      },
    });
    void runnerA.runOnce();
    await aDied;
    expect((await repo.get(job.id))?.payload).toEqual({ next: 3, total: 8 });

    // Worker B (another connection) cannot take the job while A's lease is valid...
    const runnerB = new JobRunner({
      jobs: new JobsRepo(other),
      workerId: 'B',
      clock: clock.now,
      reapEveryMs: 0,
      handlers: { write: batchWriter(other) },
    });
    expect(await runnerB.runOnce()).toBe('idle');
    // ...and takes it over once the lease expired and the backoff passed, resuming at batch 3.
    clock.advance(10_000);
    await repo.reap(clock.now(), () => 0);
    clock.advance(60_000);
    expect(await runnerB.runOnce()).toBe('ran');

    const finished = await repo.get(job.id);
    expect(finished?.status).toBe('done');
    expect(finished?.attempts).toBe(2);
    const rows = await db.settings.toArray();
    expect(rows.map((r) => r.key).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `batch-${i}`).sort());
    const writers = rows.map((r) => (r.value as { writtenBy: string }).writtenBy);
    expect(writers.filter((w) => w === 'A')).toHaveLength(3);
    expect(writers.filter((w) => w === 'B')).toHaveLength(5);
  });

  it('pause gives the lease back without spending an attempt; resume finishes the job', async () => {
    const db = freshDb();
    opened.push(db);
    const repo = new JobsRepo(db);
    let runner: JobRunner | null = null;
    runner = new JobRunner({
      jobs: repo,
      workerId: 'w',
      handlers: {
        write: batchWriter(db, async (n) => {
          if (n === 1) runner!.pause();
        }),
      },
    });
    const job = await repo.enqueue({ type: 'write', payload: { next: 0, total: 4 } }, Date.now());
    await runner.runOnce();
    const paused = await repo.get(job.id);
    expect(paused?.status).toBe('pending');
    expect(paused?.attempts).toBe(0);
    expect(paused?.payload).toEqual({ next: 2, total: 4 });
    expect(runner.isPaused).toBe(true);

    runner.resume();
    await runner.runOnce();
    expect((await repo.get(job.id))?.status).toBe('done');
    expect(await db.settings.count()).toBe(4);
  });

  it('a failing handler is retried and finally dead-lettered with its error', async () => {
    const db = freshDb();
    opened.push(db);
    const clock = manualClock();
    const repo = new JobsRepo(db, {}, { baseMs: 100, capMs: 100 });
    const runner = new JobRunner({
      jobs: repo,
      workerId: 'w',
      clock: clock.now,
      handlers: {
        flaky: async () => {
          throw new Error('disk on fire');
        },
      },
    });
    const job = await repo.enqueue({ type: 'flaky', payload: null, maxAttempts: 3 }, clock.now());
    for (let i = 0; i < 3; i++) {
      expect(await runner.runOnce()).toBe('ran');
      clock.advance(100);
    }
    const dead = await repo.get(job.id);
    expect(dead?.status).toBe('dead');
    expect(dead?.error?.message).toBe('disk on fire');
    const snapshot = await runner.snapshot();
    expect(snapshot.counts.dead).toBe(1);
    expect(snapshot.dead[0]?.id).toBe(job.id);
  });

  it('only leases job types it has handlers for', async () => {
    const db = freshDb();
    opened.push(db);
    const repo = new JobsRepo(db);
    await repo.enqueue({ type: 'embed', payload: null }, Date.now());
    const runner = new JobRunner({ jobs: repo, workerId: 'w', handlers: { import: async () => null } });
    expect(await runner.runOnce()).toBe('idle');
    expect((await repo.counts()).pending).toBe(1);
  });

  it('start() runs queued jobs in the background until stop()', async () => {
    const db = freshDb();
    opened.push(db);
    const repo = new JobsRepo(db);
    const runner = new JobRunner({ jobs: repo, workerId: 'w', idleMs: 5, handlers: { write: batchWriter(db) } });
    runner.start();
    const job = await repo.enqueue({ type: 'write', payload: { next: 0, total: 3 } }, Date.now());
    runner.kick();
    for (let i = 0; i < 200 && (await repo.get(job.id))?.status !== 'done'; i++) await new Promise((r) => setTimeout(r, 5));
    await runner.stop();
    expect((await repo.get(job.id))?.status).toBe('done');
  });
});
