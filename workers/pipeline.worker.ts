/// <reference lib="webworker" />
// The Trusted Types default policy of this worker, first (src/lib/trusted-types.ts).
import '../src/lib/trusted-types';
import type { QueueSnapshot } from '../src/lib/core/api/jobs';
import type { PipelineApi } from '../src/lib/core/api/pipeline';
import { newId } from '../src/lib/core/ids';
import { JobRunner } from '../src/lib/store/job-runner';
import { CURRENT_SCHEMA_VERSION } from '../src/lib/store/schema';
import { openRegisteredVault } from '../src/lib/services/vaults/open-vault';
import { boundDbName, workerLocks } from './bound-vault';
import { exposeApi } from './expose';
import { pipelineHandlers } from '../src/lib/services/jobs/registry';
import { startSchedule } from '../src/lib/services/jobs/schedule';
import { holdLock, workerAlive, workerLockName } from '../src/lib/services/locks';

/*
 * The pipeline worker: runs the persistent job queue. Several tabs may each run one; leasing in
 * IndexedDB keeps them from doing the same job twice. Each worker holds a Web Lock named after its
 * id for as long as it lives (src/lib/services/locks.ts), so another tab's reaper can tell a closed
 * tab's lease from a busy one at once instead of waiting for the lease to expire. It runs the
 * jobs that need only the store: the integrity check, the cleaning sweep and retention.
 */
const workerId = newId('worker');
const listeners = new Set<(snapshot: QueueSnapshot) => void>();
const locks = workerLocks();
/** The vault whose queue this worker runs (its leases, locks and jobs never touch another vault). */
const dbName = boundDbName();

const started = (async () => {
  await holdLock(locks, workerLockName(dbName, workerId));
  const vault = await openRegisteredVault(dbName, { locks });
  const runner = new JobRunner({
    jobs: vault.jobs,
    workerId,
    handlers: pipelineHandlers(vault),
    holderAlive: workerAlive(locks, dbName),
    onChange: (snapshot) => {
      for (const listener of listeners) listener(snapshot);
    },
  });
  if (await vault.settings.get('jobs.paused')) runner.pause();
  runner.start();
  // The cleaning sweep when idle (at most daily) and retention (daily): services/jobs/schedule.ts.
  startSchedule(vault, () => runner.kick());
  return { vault, runner };
})();

const api: PipelineApi = {
  async ready() {
    const { runner } = await started;
    return { workerId, schemaVersion: CURRENT_SCHEMA_VERSION, handles: runner.types };
  },
  async ping() {
    return 'pong';
  },
  async enqueue(spec) {
    const { vault, runner } = await started;
    const job = await vault.jobs.enqueue(spec, Date.now());
    runner.kick();
    return job.id;
  },
  async snapshot() {
    const { runner } = await started;
    return runner.snapshot();
  },
  async subscribe(listener) {
    listeners.add(listener);
    const { runner } = await started;
    listener(await runner.snapshot());
  },
  async pause() {
    const { vault, runner } = await started;
    await vault.settings.set('jobs.paused', true);
    runner.pause();
  },
  async resume() {
    const { vault, runner } = await started;
    await vault.settings.set('jobs.paused', false);
    runner.resume();
  },
  async retry(jobId) {
    const { vault, runner } = await started;
    const retried = await vault.jobs.retry(jobId, Date.now());
    runner.kick();
    return retried;
  },
};

exposeApi(api);
