import { afterEach, describe, expect, it } from 'vitest';
import type { DBCore } from 'dexie';
import { EXTRACT_JOB, type ExtractJobResult } from '../../../src/lib/core/api/extract-api';
import type { JobRecord, JobStatus } from '../../../src/lib/core/records';
import type { VaultDb } from '../../../src/lib/store/schema';
import { readExtractionProgress, SAMPLE } from '../../../src/lib/store/views/extraction-view';
import { freshDb } from '../../factories/db';
import { jobRecord } from '../../factories/records';

const opened: VaultDb[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

/** A vault whose reads of job rows (values, not index counts) are counted. */
function countingDb(): { db: VaultDb; rowsRead: () => number; reset: () => void } {
  const db = freshDb();
  opened.push(db);
  let rows = 0;
  db.use({
    stack: 'dbcore',
    name: 'count-job-rows',
    create: (down: DBCore): DBCore => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        if (name !== 'jobs') return table;
        return {
          ...table,
          query: async (request) => {
            const response = await table.query(request);
            if (request.values) rows += response.result.length;
            return response;
          },
          get: async (request) => {
            rows += 1;
            return table.get(request);
          },
          getMany: async (request) => {
            rows += request.keys.length;
            return table.getMany(request);
          },
          openCursor: async (request) => {
            const cursor = await table.openCursor(request);
            if (cursor && request.values !== false) rows += 1; // a cursor is a way to read past the count: make it show
            return cursor;
          },
        };
      },
    }),
  });
  return { db, rowsRead: () => rows, reset: () => (rows = 0) };
}

const result = (candidates: number, extractors: ExtractJobResult['extractors'] = ['rule-based']): ExtractJobResult => ({
  conversationId: 'c',
  extractors,
  llmId: null,
  windows: 1,
  fallbacks: [{ window: 0, reason: { code: 'llm/unavailable', message: 'No language model is configured.' } }],
  candidates,
  existing: 0,
  rejected: 0,
  summary: null,
});

function job(id: string, status: JobStatus, createdAt: number, extra: Partial<JobRecord> = {}): JobRecord {
  return jobRecord({
    id,
    type: EXTRACT_JOB,
    payload: { conversationId: `c-${id}` },
    status,
    priority: 60,
    attempts: status === 'pending' ? 0 : 1,
    runAfter: createdAt,
    leasedBy: status === 'leased' ? 'w' : null,
    createdAt,
    updatedAt: createdAt + 1,
    ...extra,
  });
}

describe('extraction progress view', () => {
  it('counts conversations done of the batch, the running one by windows, and which extractor ran', async () => {
    const { db } = countingDb();
    await db.jobs.bulkAdd([
      job('a', 'done', 1_000, { result: result(4) }),
      job('b', 'leased', 1_000, { progress: { done: 1, total: 3, unit: 'windows' } }),
      job('c', 'pending', 1_000),
      { ...job('x', 'pending', 1_000), type: 'index.update' },
    ]);
    expect(await readExtractionProgress(db, EXTRACT_JOB)).toEqual({
      done: 1,
      total: 3,
      running: { conversationId: 'c-b', done: 1, total: 3 },
      failed: 0,
      extractors: ['rule-based'],
      llmId: null,
      fallbackReason: 'No language model is configured.',
      candidates: 4,
    });
  });

  it('while work is live, reads index counts, the leased job and the newest finished ones only, whatever the queue holds', async () => {
    const { db, rowsRead, reset } = countingDb();
    const rows: JobRecord[] = [];
    // The first file's jobs (queued at 10,000), finished after the second file's were queued (10,700).
    for (let i = 0; i < 400; i++)
      rows.push(job(`d${String(i).padStart(4, '0')}`, 'done', 10_000 + i, { updatedAt: 20_000 + i, result: result(1) }));
    for (let i = 0; i < 3; i++) rows.push(job(`f${i}`, 'dead', 10_500 + i, { updatedAt: 20_500 }));
    rows.push(job('l', 'leased', 10_600, { updatedAt: 20_600, progress: { done: 2, total: 5, unit: 'windows' } }));
    for (let i = 0; i < 600; i++) rows.push(job(`p${String(i).padStart(4, '0')}`, 'pending', 10_700 + i, { updatedAt: 10_700 + i }));
    // An earlier batch, finished before this one was queued: not part of it.
    for (let i = 0; i < 5; i++) rows.push(job(`old${i}`, 'done', 100 + i, { result: result(7) }));
    await db.jobs.bulkAdd(rows);
    reset();
    const progress = await readExtractionProgress(db, EXTRACT_JOB);
    expect(progress).toMatchObject({ done: 400, total: 1001, failed: 3, running: { conversationId: 'c-l', done: 2, total: 5 } });
    expect(progress!.extractors).toEqual(['rule-based']);
    // The leased job, the oldest pending one, and SAMPLE finished ones: not the 1,009 rows.
    expect(rowsRead()).toBeGreaterThan(0);
    expect(rowsRead()).toBeLessThanOrEqual(1 + 1 + SAMPLE);

    // The leased one and 200 pending finish: 601 done of the same 1,001, and still few rows read.
    await db.jobs.bulkPut([
      job('l', 'done', 10_600, { updatedAt: 30_000, result: result(2) }),
      ...Array.from({ length: 200 }, (_, i) =>
        job(`p${String(i).padStart(4, '0')}`, 'done', 10_700 + i, { updatedAt: 30_001 + i, result: result(1) }),
      ),
    ]);
    reset();
    const later = await readExtractionProgress(db, EXTRACT_JOB);
    expect(later).toMatchObject({ done: 601, total: 1001, running: null });
    expect(rowsRead()).toBeLessThanOrEqual(1 + SAMPLE);
  });

  it('once nothing is live, sums the whole batch (the last hour of queued work) and counts the failed', async () => {
    const { db } = countingDb();
    const hour = 3_600_000;
    await db.jobs.bulkAdd([
      ...Array.from({ length: SAMPLE + 30 }, (_, i) => job(`d${i}`, 'done', 10 * hour + i, { result: result(2) })),
      job('llm', 'done', 10 * hour + 500, { result: { ...result(5, ['llm']), llmId: 'qwen', fallbacks: [] } }),
      job('dead', 'dead', 10 * hour + 600),
      // Finished more than an hour before the newest: an earlier batch.
      job('old', 'done', 8 * hour, { result: result(100) }),
    ]);
    const progress = await readExtractionProgress(db, EXTRACT_JOB);
    expect(progress).toMatchObject({ done: SAMPLE + 31, total: SAMPLE + 31, failed: 1, running: null, llmId: 'qwen' });
    expect(progress!.candidates).toBe((SAMPLE + 30) * 2 + 5);
    expect(new Set(progress!.extractors)).toEqual(new Set(['llm', 'rule-based']));
  });

  it('says nothing when no job of the type was ever queued', async () => {
    const { db } = countingDb();
    await db.jobs.add({ ...job('x', 'done', 1), type: 'index.update' });
    expect(await readExtractionProgress(db, EXTRACT_JOB)).toBeNull();
  });
});
