/**
 * The Search index card never says "Up to date" while indexing has stopped: a waiting index job
 * whose last attempt failed, or a queue that could not be read, is said in words with what to do.
 */
import { describe, expect, it } from 'vitest';
import { indexWorkNotice } from '../../../src/lib/core/jobs/index-work-notice';
import { vaultError } from '../../../src/lib/core/errors';
import type { JobsRepo } from '../../../src/lib/store/jobs-repo';
import { openVault } from '../../../src/lib/store/vault';
import { jobRecord } from '../../factories/records';

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
const full = vaultError('store/quota-exceeded', 'The browser refused to store more data: the disk or the storage quota is full.');

describe('what the index card says about stopped work', () => {
  it('says nothing when the work goes on', () => {
    expect(indexWorkNotice({ paused: false, running: null, pending: 2 }, 0, seconds)).toBeNull();
    expect(indexWorkNotice({ paused: false, running: null, pending: 0, failing: null, unread: null }, 0, seconds)).toBeNull();
  });

  it("names a failing job's error, what to do, and when it is tried again", () => {
    const notice = indexWorkNotice(
      { paused: false, running: null, pending: 1, failing: { error: full, retryAt: 45_000 } },
      15_000,
      seconds,
    );
    expect(notice?.kind).toBe('failing');
    expect(notice?.text).toContain('An indexing task failed: The browser refused to store more data');
    expect(notice?.text).toContain('Free disk space');
    expect(notice?.text).toContain('It tries again in 30 s.');
    const due = indexWorkNotice({ paused: false, running: null, pending: 1, failing: { error: full, retryAt: 10_000 } }, 15_000, seconds);
    expect(due?.text).toContain('It tries again now.');
  });

  it('says the queue could not be read rather than that nothing is left', () => {
    const unread = vaultError('store/timeout', 'Storage did not answer within 30 s while doing counting jobs.');
    const notice = indexWorkNotice({ paused: false, running: null, pending: 0, unread }, 0, seconds);
    expect(notice).toMatchObject({ kind: 'unread' });
    expect(notice?.text).toContain("The index's work queue could not be read: Storage did not answer within 30 s");
  });
});

describe('the first failing job of some types', () => {
  it('finds a waiting job with an error, not a waiting one without, nor a failing one of another type', async () => {
    const vault = await openVault(`failing-${process.pid}-${Date.now()}`);
    try {
      const jobs: JobsRepo = vault.jobs;
      expect(await jobs.firstFailing(['index.update'])).toBeNull();
      await vault.db.jobs.bulkAdd([
        job('a', 'index.update', null),
        job('b', 'extract.conversation', { code: 'store/quota-exceeded', message: 'full' }),
      ]);
      expect(await jobs.firstFailing(['index.update', 'index.embed'])).toBeNull();
      await vault.db.jobs.add(job('c', 'index.embed', { code: 'store/quota-exceeded', message: 'full' }));
      expect((await jobs.firstFailing(['index.update', 'index.embed']))?.id).toBe('c');
    } finally {
      vault.db.close();
    }
  });
});

function job(id: string, type: string, error: { code: string; message: string } | null) {
  return jobRecord({ id, type, error, attempts: error ? 1 : 0 });
}
