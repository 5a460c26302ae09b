/**
 * When the vault keeps itself: the cleaning sweep runs when the app is idle (no import, index or
 * extraction work waiting) and at most once per `curate.sweepIntervalHours` (default a day: the
 * seeds' nightly "dream loop"; null: only on demand from Notes); retention once a day. The pipeline
 * worker of every tab ticks this; the queue's dedupe key keeps it to one job, and leasing to one
 * runner.
 */
import { CURATE_SWEEP_JOB, curateSweepJob, RETENTION_JOB, retentionJob } from '../../core/api/curate-api';
import type { Vault } from '../../store/vault';

const HOUR = 3_600_000;
export const RETENTION_EVERY_MS = 24 * HOUR;
/** How often a tab's pipeline worker looks (and how long after it starts). */
export const TICK_MS = 10 * 60_000;
export const FIRST_TICK_MS = 60_000;

const OWN = new Set([CURATE_SWEEP_JOB, RETENTION_JOB]);

/** Whether other background work is waiting or running (then the app is not idle). */
async function busy(vault: Vault): Promise<boolean> {
  const live = await vault.db.jobs.where('status').anyOf(['pending', 'leased']).toArray();
  return live.some((job) => !OWN.has(job.type));
}

export interface ScheduleOutcome {
  sweep: 'queued' | 'not-due' | 'busy' | 'off';
  retention: 'queued' | 'not-due';
}

/** Queues what is due; returns what it did (tests, and the worker's log). */
export async function scheduleDueWork(vault: Vault, now: number): Promise<ScheduleOutcome> {
  const outcome: ScheduleOutcome = { sweep: 'not-due', retention: 'not-due' };
  const lastRetention = (await vault.settings.get('retention.last'))?.at ?? null;
  if (lastRetention === null || now - lastRetention >= RETENTION_EVERY_MS) {
    await vault.jobs.enqueue(retentionJob(), now);
    outcome.retention = 'queued';
  }
  const hours = await vault.settings.get('curate.sweepIntervalHours');
  if (hours === null) return { ...outcome, sweep: 'off' };
  const last = (await vault.settings.get('curate.lastSweep'))?.finishedAt ?? null;
  if (last !== null && now - last < hours * HOUR) return outcome;
  if (await busy(vault)) return { ...outcome, sweep: 'busy' };
  await vault.jobs.enqueue(curateSweepJob('scheduled'), now);
  return { ...outcome, sweep: 'queued' };
}

/** Ticks `scheduleDueWork` on a timer; `kick` wakes the runner after something was queued. */
export function startSchedule(vault: Vault, kick: () => void, now: () => number = Date.now): () => void {
  const tick = () =>
    void scheduleDueWork(vault, now()).then(
      (outcome) => {
        if (outcome.sweep === 'queued' || outcome.retention === 'queued') kick();
      },
      () => undefined, // the next tick tries again
    );
  const first = setTimeout(tick, FIRST_TICK_MS);
  const every = setInterval(tick, TICK_MS);
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
