import { afterEach, describe, expect, it, vi } from 'vitest';
import { JobsRepo } from '../../../src/lib/store/jobs-repo';
import type { VaultDb } from '../../../src/lib/store/schema';
import { freshDb, manualClock, secondConnection, seededRng } from '../../factories/db';

const opened: VaultDb[] = [];
function track(db: VaultDb): VaultDb {
  opened.push(db);
  return db;
}
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

describe('JobsRepo leasing', () => {
  it('never leases one job twice, even with concurrent workers on separate connections', async () => {
    const db = track(freshDb());
    const clock = manualClock();
    const repo = new JobsRepo(db);
    for (let i = 0; i < 40; i++) await repo.enqueue({ type: 'work', payload: { i } }, clock.now());

    // Six "workers", each with its own connection, lease as fast as they can.
    const workers = Array.from({ length: 6 }, (_, w) => ({ id: `w${w}`, repo: new JobsRepo(track(secondConnection(db))) }));
    const leasedBy = new Map<string, string>();
    const duplicates: string[] = [];
    await Promise.all(
      workers.map(async ({ id, repo: r }) => {
        for (;;) {
          const job = await r.lease(id, clock.now(), 60_000);
          if (!job) return;
          if (leasedBy.has(job.id)) duplicates.push(job.id);
          leasedBy.set(job.id, id);
        }
      }),
    );
    expect(duplicates).toEqual([]);
    expect(leasedBy.size).toBe(40);
    expect(new Set(leasedBy.values()).size).toBeGreaterThan(1); // the work really was shared
    expect((await repo.counts()).leased).toBe(40);
  });

  it('leases by priority, then due time, and skips jobs not yet due or of other types', async () => {
    const db = track(freshDb());
    const clock = manualClock();
    const repo = new JobsRepo(db);
    const late = await repo.enqueue({ type: 'a', payload: 'late', runAfter: clock.now() + 10_000 }, clock.now());
    const low = await repo.enqueue({ type: 'a', payload: 'low', priority: 200 }, clock.now());
    const high = await repo.enqueue({ type: 'a', payload: 'high', priority: 10 }, clock.now());
    await repo.enqueue({ type: 'b', payload: 'other' }, clock.now());

    expect((await repo.lease('w', clock.now(), 1000, ['a']))?.id).toBe(high.id);
    expect((await repo.lease('w', clock.now(), 1000, ['a']))?.id).toBe(low.id);
    expect(await repo.lease('w', clock.now(), 1000, ['a'])).toBeNull();
    clock.advance(10_000);
    expect((await repo.lease('w', clock.now(), 1000, ['a']))?.id).toBe(late.id);
  });

  it('does not queue a second live job with the same dedupe key', async () => {
    const db = track(freshDb());
    const repo = new JobsRepo(db);
    const first = await repo.enqueue({ type: 'embed', payload: 1, dedupeKey: 'embed:all' }, 1);
    const second = await repo.enqueue({ type: 'embed', payload: 2, dedupeKey: 'embed:all' }, 2);
    expect(second.id).toBe(first.id);
    expect((await repo.counts()).pending).toBe(1);
  });

  it('queues a successor when the job of that dedupe key is already running', async () => {
    const db = track(freshDb());
    const repo = new JobsRepo(db);
    const running = await repo.enqueue({ type: 'embed', payload: 1, dedupeKey: 'embed:all' }, 1);
    expect((await repo.lease('w', 2, 1000))?.id).toBe(running.id);
    const successor = await repo.enqueue({ type: 'embed', payload: 2, dedupeKey: 'embed:all' }, 3);
    expect(successor.id).not.toBe(running.id);
    expect((await repo.enqueue({ type: 'embed', payload: 3, dedupeKey: 'embed:all' }, 4)).id).toBe(successor.id);
    expect((await repo.counts()).pending).toBe(1);
  });

  it('queues many jobs in one transaction with the same dedupe rule, in order', async () => {
    const db = track(freshDb());
    const repo = new JobsRepo(db);
    const pending = await repo.enqueue({ type: 'x', payload: 'old', dedupeKey: 'x:1' }, 1);
    const running = await repo.enqueue({ type: 'z', payload: 'running', dedupeKey: 'x:2' }, 1);
    expect((await repo.lease('w', 2, 1000, ['z']))?.id).toBe(running.id);
    const transactions = vi.spyOn(db, 'transaction');
    const jobs = await repo.enqueueAll(
      [
        { type: 'x', payload: 'a', dedupeKey: 'x:1' },
        { type: 'x', payload: 'b', dedupeKey: 'x:2' },
        { type: 'x', payload: 'c', dedupeKey: 'x:3' },
        { type: 'x', payload: 'd', dedupeKey: 'x:3' },
        { type: 'y', payload: 'e' },
      ],
      3,
    );
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(jobs[0]!.id).toBe(pending.id); // a pending job of the key absorbs the new one
    expect(jobs[1]!.id).not.toBe(running.id); // a running one does not
    expect(jobs[1]!.payload).toBe('b');
    expect(jobs[3]!.id).toBe(jobs[2]!.id); // one key twice in the list: one job
    expect(jobs.map((j) => j.payload)).toEqual(['old', 'b', 'c', 'c', 'e']);
    expect((await repo.counts()).pending).toBe(4);
    expect(await repo.enqueueAll([], 4)).toEqual([]);
  });

  it('counts the jobs of some types in one status from the index, and only those', async () => {
    const db = track(freshDb());
    const clock = manualClock();
    const repo = new JobsRepo(db);
    for (let i = 0; i < 5; i++) await repo.enqueue({ type: 'extract', payload: i }, clock.now());
    const later = clock.now() + 1;
    await repo.enqueue({ type: 'index.update', payload: 1, runAfter: later }, clock.now());
    await repo.enqueue({ type: 'index.embed', payload: 2, runAfter: later }, clock.now());
    await repo.enqueue({ type: 'index.embed', payload: 3, runAfter: later }, clock.now());
    const leased = await repo.lease('w', clock.now(), 60_000); // only the 'extract' ones are due
    expect(leased?.type).toBe('extract');
    expect(await repo.countOfTypes(['index.update', 'index.embed'], 'pending')).toBe(3);
    expect(await repo.countOfTypes(['extract'], 'pending')).toBe(4);
    expect(await repo.countOfTypes(['extract'], 'leased')).toBe(1);
    expect(await repo.countOfTypes([], 'pending')).toBe(0);
  });
});

describe('JobsRepo failures', () => {
  it('retries with exponential backoff and jitter, then moves the job to dead with its error', async () => {
    const db = track(freshDb());
    const clock = manualClock();
    const rng = seededRng(7);
    const repo = new JobsRepo(db, {}, { baseMs: 1000, capMs: 60_000 });
    const job = await repo.enqueue({ type: 'x', payload: null, maxAttempts: 4 }, clock.now());

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const leased = await repo.lease('w', clock.now(), 1000);
      expect(leased?.id).toBe(job.id);
      expect(leased?.attempts).toBe(attempt);
      await repo.fail(job.id, 'w', { code: 'job/failed', message: `boom ${attempt}` }, clock.now(), rng);
      const after = await repo.get(job.id);
      if (attempt < 4) {
        expect(after?.status).toBe('pending');
        const delay = after!.runAfter - clock.now();
        delays.push(delay);
        // equal jitter: between half and all of base * 2^(attempt-1)
        const step = 1000 * 2 ** (attempt - 1);
        expect(delay).toBeGreaterThanOrEqual(step / 2);
        expect(delay).toBeLessThanOrEqual(step);
        expect(await repo.lease('w', clock.now(), 1000)).toBeNull(); // not due yet
        clock.advance(delay);
      } else {
        expect(after?.status).toBe('dead');
        expect(after?.error).toEqual({ code: 'job/failed', message: 'boom 4' });
      }
    }
    expect(delays[2]!).toBeGreaterThan(delays[0]!);
    expect((await repo.list('dead')).map((j) => j.id)).toEqual([job.id]);

    // A person can give a dead job a fresh set of attempts.
    expect(await repo.retry(job.id, clock.now())).toBe(true);
    expect((await repo.lease('w', clock.now(), 1000))?.attempts).toBe(1);
  });

  it('reaper returns expired leases to pending and dead-letters when attempts are used up', async () => {
    const db = track(freshDb());
    const clock = manualClock();
    const rng = seededRng(1);
    const repo = new JobsRepo(db, {}, { baseMs: 10, capMs: 10 });
    const a = await repo.enqueue({ type: 'x', payload: 'a', maxAttempts: 3 }, clock.now());
    const b = await repo.enqueue({ type: 'x', payload: 'b', maxAttempts: 1 }, clock.now());
    await repo.lease('gone', clock.now(), 5_000);
    await repo.lease('gone', clock.now(), 5_000);

    expect(await repo.reap(clock.now() + 4_999, rng)).toBe(0); // leases still valid
    clock.advance(5_000);
    expect(await repo.reap(clock.now(), rng)).toBe(2);
    expect((await repo.get(a.id))?.status).toBe('pending');
    expect((await repo.get(a.id))?.error?.code).toBe('job/lease-expired');
    expect((await repo.get(b.id))?.status).toBe('dead');
  });

  it('reaper reclaims a valid lease at once when its holder is known to be gone', async () => {
    const db = track(freshDb());
    const repo = new JobsRepo(db);
    const job = await repo.enqueue({ type: 'x', payload: null }, 0);
    await repo.lease('tab-1', 0, 60_000);
    expect(
      await repo.reap(
        1,
        () => 0,
        (holder) => holder !== 'tab-1',
      ),
    ).toBe(1);
    expect((await repo.get(job.id))?.status).toBe('pending');
  });

  it('a worker that lost its lease can no longer checkpoint or complete the job', async () => {
    const db = track(freshDb());
    const clock = manualClock();
    const repo = new JobsRepo(db);
    const job = await repo.enqueue({ type: 'x', payload: null }, clock.now());
    await repo.lease('slow', clock.now(), 1000);
    clock.advance(1000);
    await repo.reap(clock.now(), () => 0.5);
    clock.advance(60_000);
    const again = await repo.lease('fast', clock.now(), 1000);
    expect(again?.id).toBe(job.id);
    expect(await repo.heartbeat(job.id, 'slow', clock.now(), 1000)).toBe(false);
    expect(await repo.checkpoint(job.id, 'slow', clock.now(), { payload: 'x' })).toBe(false);
    expect(await repo.complete(job.id, 'slow', clock.now())).toBe(false);
    expect(await repo.complete(job.id, 'fast', clock.now())).toBe(true);
    expect((await repo.get(job.id))?.status).toBe('done');
  });
});
