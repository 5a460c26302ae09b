import { describe, expect, it } from 'vitest';
import { CURATE_SWEEP_JOB, RETENTION_JOB } from '../../../src/lib/core/api/curate-api';
import type { HistoryRecord, JobRecord } from '../../../src/lib/core/records';
import { scheduleDueWork } from '../../../src/lib/services/jobs/schedule';
import { runRetention } from '../../../src/lib/store/retention';
import { jobRecord, message, note } from '../../factories/records';
import { addMessages, messageTables } from '../../../src/lib/store/messages-store';
import { runTx } from '../../../src/lib/store/transaction';
import { closeVault, openTestVault, stampAt } from './helpers';

const DAY = 86_400_000;
const NOW = 1_800_000_000_000;

function job(id: string, status: JobRecord['status'], updatedAt: number, type = 'index.update'): JobRecord {
  return jobRecord({ id, type, payload: {}, status, attempts: 1, maxAttempts: 3, createdAt: updatedAt, updatedAt });
}

const entry = (recordId: string, at: number): HistoryRecord => ({
  id: `h-${recordId}-${at}`,
  table: 'notes',
  recordId,
  at,
  actor: 'user',
  action: 'edit',
  before: null,
  after: null,
  why: '',
});

describe('the retention job on the store', () => {
  it('purges finished jobs past a week, history beyond the cap and old exported tombstones, and reports it', async () => {
    const vault = await openTestVault();
    await vault.settings.set('vault.deviceId', 'da');
    await vault.db.jobs.bulkPut([
      job('old-done', 'done', NOW - 8 * DAY),
      job('new-done', 'done', NOW - DAY),
      job('old-dead', 'dead', NOW - 30 * DAY),
    ]);
    await vault.settings.set('retention.historyPerNote', 2);
    await vault.db.history.bulkPut([entry('n1', 1), entry('n1', 2), entry('n1', 3), entry('n2', 1)]);
    // A second device (db) stamped a record and never reported what it merged: only the 90-day rule applies.
    await vault.db.notes.put(note({ id: 'n-b', hlc: stampAt(1, 'db-x') }));
    await vault.db.tombstones.bulkPut([
      { table: 'notes', id: 'gone-old', hlc: stampAt(2, 'da-x'), deletedAt: NOW - 100 * DAY },
      { table: 'notes', id: 'gone-new', hlc: stampAt(3, 'da-x'), deletedAt: NOW - 10 * DAY },
    ]);
    await vault.settings.set('vault.lastExportAt', NOW - 5 * DAY);

    const report = await runRetention(vault, NOW);
    expect(report.removed).toMatchObject({ jobs: 1, history: 1, tombstones: 1 });
    expect(report.tombstoneRules).toEqual({ mergedEverywhere: 0, oldAndExported: 1 });
    expect(report.knownDevices).toBe(2);
    expect((await vault.db.jobs.toArray()).map((j) => j.id).sort()).toEqual(['new-done', 'old-dead']);
    expect((await vault.db.history.toArray()).map((h) => h.id).sort()).toEqual(['h-n1-2', 'h-n1-3', 'h-n2-1']);
    expect((await vault.db.tombstones.toArray()).map((t) => t.id)).toEqual(['gone-new']);
    expect(await vault.settings.get('retention.last')).toEqual(report);
    await closeVault(vault);
  });

  it('reads stamps and history page by page: the same report with pages of two rows', async () => {
    const vault = await openTestVault();
    await vault.settings.set('vault.deviceId', 'da');
    await vault.settings.set('retention.historyPerNote', 2);
    // Five notes stamped by five devices, and a history of seven entries over two notes.
    await vault.db.notes.bulkPut(['a', 'b', 'c', 'd', 'e'].map((d, i) => note({ id: `n-${d}`, hlc: stampAt(i + 1, `d${d}-x`) })));
    await vault.db.tombstones.put({ table: 'notes', id: 'gone', hlc: stampAt(9, 'dz-x'), deletedAt: NOW - DAY });
    await vault.db.history.bulkPut([1, 2, 3, 4, 5].map((at) => entry('n1', at)).concat([entry('n2', 1), entry('n2', 2)]));
    const steps: number[] = [];
    const report = await runRetention(vault, NOW, async () => void steps.push(1), 2);
    expect(report.knownDevices).toBe(6);
    expect(report.removed.history).toBe(3);
    expect((await vault.db.history.toArray()).map((h) => h.id).sort()).toEqual(['h-n1-4', 'h-n1-5', 'h-n2-1', 'h-n2-2']);
    // Pages of two: 3 of notes and 1 of tombstones for the stamps, 4 of history, each followed by a yield.
    expect(steps.length).toBeGreaterThanOrEqual(8);
    await closeVault(vault);
  });

  it('knows the devices that stamped only messages, whether stored as rows or in blocks', async () => {
    const vault = await openTestVault();
    await vault.settings.set('vault.deviceId', 'da');
    await runTx(vault.db, 'rw', messageTables(vault.db), async () => {
      // An imported conversation's messages go into a block; a staged one stays a row.
      await addMessages(vault.db, [
        message({ id: 'm-b1', conversationId: 'c-b', hlc: stampAt(1, 'db-x') }),
        message({ id: 'm-b2', conversationId: 'c-b', ordinal: 1, hlc: stampAt(2, 'dc-x') }),
        message({ id: 'm-r', conversationId: 'c-r', hlc: stampAt(3, 'dd-x'), state: 'staged', stagedBy: 'imp_x/0' }),
      ]);
    });
    expect(await vault.db.messageBlocks.count()).toBe(1);
    const report = await runRetention(vault, NOW, async () => undefined, 1);
    // db and dc (the block), dd (the row), and this device (da).
    expect(report.knownDevices).toBe(4);
    await closeVault(vault);
  });

  it('schedules retention daily and the sweep only when idle and due', async () => {
    const vault = await openTestVault();
    await vault.db.jobs.put(job('busy', 'pending', NOW));
    expect(await scheduleDueWork(vault, NOW)).toEqual({ sweep: 'busy', retention: 'queued' });
    await vault.db.jobs.delete('busy');
    expect(await scheduleDueWork(vault, NOW)).toEqual({ sweep: 'queued', retention: 'queued' });
    const queued = await vault.db.jobs.where('status').equals('pending').toArray();
    // Deduplicated: one of each however often the schedule ticks.
    expect(queued.map((j) => j.type).sort()).toEqual([CURATE_SWEEP_JOB, RETENTION_JOB]);
    await vault.settings.set('curate.lastSweep', {
      sweepId: 's',
      reason: 'scheduled',
      startedAt: NOW,
      finishedAt: NOW,
      notes: 0,
      compared: 0,
      candidatePairs: 0,
      duplicatePairs: 0,
      contradictions: 0,
      proposals: {},
      skippedDismissed: 0,
      threadMaps: 0,
    });
    await runRetention(vault, NOW);
    expect(await scheduleDueWork(vault, NOW + 23 * 3_600_000)).toEqual({ sweep: 'not-due', retention: 'not-due' });
    expect((await scheduleDueWork(vault, NOW + 25 * 3_600_000)).sweep).toBe('queued');
    await vault.settings.set('curate.sweepIntervalHours', null);
    expect((await scheduleDueWork(vault, NOW + 50 * 3_600_000)).sweep).toBe('off');
    await closeVault(vault);
  });
});
