/**
 * "An import or embedding job running in one vault keeps running (or pauses and resumes) when the
 * person switches, and never writes into the other." In the app a vault left behind stops with its
 * tab's workers: its job gives its lease back at the next batch, keeping its checkpoint, and
 * resumes from there when the vault is opened again. Here vault A's embedding job is stopped after
 * its first batch, its index closed and its database closed (the tab switched), vault B is opened
 * and indexed in the same process with the same shared index cache (as the browser's workers share
 * one), then A is reopened: its job resumes from its checkpoint, finishes, and B's rows are
 * exactly what they were.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { INDEX_JOBS } from '../../../src/lib/core/api/index-api';
import type { JobRecord } from '../../../src/lib/core/records';
import { openInProcessIndex, type InProcessIndex } from '../../../src/lib/services/index/in-process';
import { queueIndexing } from '../../../src/lib/store/index-queue';
import { runImport } from '../../../src/lib/store/importer';
import { JobRunner, type JobHandler } from '../../../src/lib/store/job-runner';
import { openVault, type Vault } from '../../../src/lib/store/vault';

const CACHE_DB = `paused-job-cache-${process.pid}`;
const A_TOKEN = 'amberquill';
const B_TOKEN = 'basaltwren';
const opened: { vault: Vault; index?: InProcessIndex }[] = [];

afterAll(() => {
  for (const o of opened) {
    o.index?.close();
    o.vault.db.close();
  }
});

async function importChats(vault: Vault, token: string, count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    const text = `User: What about the garden plans ${token} number ${n}?\n\nAssistant: For the garden, ${token} keeps note ${n}.`;
    const bytes = new TextEncoder().encode(text);
    await runImport(vault, [{ name: `chat-${n}.txt`, size: bytes.length, bytes: new Blob([bytes]).stream() }], {
      onPublished: queueIndexing(vault),
    });
  }
}

/** Every row of every table, as a string (what "B's rows are exactly what they were" compares). */
async function everyRow(vault: Vault): Promise<string> {
  const tables: Record<string, unknown[]> = {};
  for (const table of vault.db.tables) tables[table.name] = await table.toArray();
  return JSON.stringify(tables, (_, value: unknown) => (value instanceof Float32Array ? Array.from(value) : value));
}

const embedJob = async (vault: Vault): Promise<JobRecord | undefined> =>
  (await vault.db.jobs.toArray()).find((j) => j.type === INDEX_JOBS.embed);

describe('a vault left behind pauses its job and resumes it from its checkpoint, writing only into itself', () => {
  it('stops after a batch, lets the other vault work, then finishes from where it stopped', async () => {
    const nameA = `paused-a-${process.pid}-${Date.now()}`;
    const nameB = `paused-b-${process.pid}-${Date.now()}`;
    let a = await openVault(nameA);
    const b = await openVault(nameB);
    opened.push({ vault: a }, { vault: b });
    await importChats(a, A_TOKEN, 90);
    await importChats(b, B_TOKEN, 5);

    // A's tab: its worker runs A's jobs and stops (the person switched) after the first embedding batch.
    // Small batches: A's 90 chats make several, so there is a batch after the one it stops at.
    const indexA = await openInProcessIndex(a, { rebuild: false, cacheDatabase: CACHE_DB, batch: { lexical: 64, neural: 16 } });
    let stopping: Promise<void> | null = null;
    const handlers = indexA.service.handlers();
    const embed = handlers[INDEX_JOBS.embed]!;
    const tab: JobRunner = new JobRunner({
      jobs: a.jobs,
      workerId: 'tab-a',
      handlers: {
        ...handlers,
        [INDEX_JOBS.embed]: (ctx) =>
          embed({
            ...ctx,
            checkpoint: async (payload, progress) => {
              await ctx.checkpoint(payload, progress);
              stopping ??= tab.stop();
            },
          }),
      },
    });
    tab.start();
    await expect.poll(() => stopping !== null, { timeout: 30_000, interval: 20 }).toBe(true);
    await stopping;
    indexA.close();
    a.db.close();

    const left = await (async () => {
      const reopened = await openVault(nameA);
      const job = await embedJob(reopened);
      const vectors = await reopened.db.vectors.count();
      const chunks = await reopened.db.chunks.count();
      reopened.db.close();
      return { job, vectors, chunks };
    })();
    expect(left.job?.status).toBe('pending');
    const checkpoint = (left.job?.payload as { done?: number } | null)?.done ?? 0;
    expect(checkpoint).toBeGreaterThan(0);
    expect(left.vectors).toBe(checkpoint);
    expect(left.chunks).toBeGreaterThan(checkpoint);

    // B's tab: indexed to the end in the same process, the same index cache.
    const indexB = await openInProcessIndex(b, { rebuild: false, cacheDatabase: CACHE_DB });
    opened.push({ vault: b, index: indexB });
    await indexB.runJobs();
    const bAnswer = await indexB.recaller().answer({ prompt: `What about the garden plans ${B_TOKEN}?` }, { writeBack: false });
    if (!bAnswer.ok) throw new Error(bAnswer.error.message);
    expect(bAnswer.value.result.items.length).toBeGreaterThan(0);
    const bBefore = await everyRow(b);
    expect(bBefore).not.toContain(A_TOKEN);

    // Back in A: its job resumes from the checkpoint it left, not from the start.
    a = await openVault(nameA);
    const reopenedIndex = await openInProcessIndex(a, { rebuild: false, cacheDatabase: CACHE_DB });
    opened.push({ vault: a, index: reopenedIndex });
    const resumedAt: number[] = [];
    const again = reopenedIndex.service.handlers();
    const resumed: JobHandler = (ctx) => {
      resumedAt.push((ctx.job.payload as { done?: number } | null)?.done ?? 0);
      return again[INDEX_JOBS.embed]!(ctx);
    };
    const back = new JobRunner({ jobs: a.jobs, workerId: 'tab-a-again', handlers: { ...again, [INDEX_JOBS.embed]: resumed } });
    while ((await back.runOnce()) === 'ran');
    expect(resumedAt[0]).toBe(checkpoint);
    expect((await embedJob(a))?.status).toBe('done');
    expect(await a.db.vectors.count()).toBe(left.chunks);

    const aAnswer = await reopenedIndex.recaller().answer({ prompt: `garden plans ${A_TOKEN} number 80` }, { writeBack: false });
    if (!aAnswer.ok) throw new Error(aAnswer.error.message);
    const aTexts = aAnswer.value.result.items.map((i) => i.record.text).join('\n');
    expect(aTexts).toContain(A_TOKEN);
    expect(aTexts).not.toContain(B_TOKEN);

    // Nothing A did after it resumed reached B.
    expect(await everyRow(b)).toBe(bBefore);
  }, 120_000);
});
