/**
 * Extraction's progress as the Inbox and Import screens show it, read live from the job queue: how
 * many conversations are done of how many queued, the running one's windows, and which extractor
 * ran (and why the rule-based one ran, when it did).
 *
 * A heavy import queues one job per conversation (10,000 for the 300k-message archive), and every
 * job that is leased, reports progress or finishes wakes the screen's liveQuery. So while work is
 * live this reads counts from the [type+status+updatedAt] index, the few leased jobs, and the newest
 * SAMPLE finished ones only; the whole batch's results are read once, when nothing is live.
 *
 * The batch: live jobs and those finished since the oldest live one was queued (a pending job's
 * updatedAt is when it was queued, or re-queued by a retry; a leased one's createdAt), so the
 * second file of a multi-file import continues the count; with nothing live, what finished in
 * the hour before the newest finished job.
 */
import Dexie from 'dexie';
import type { ExtractJobResult } from '../../core/api/extract-api';
import type { JobRecord, JobStatus } from '../../core/records';
import type { VaultDb } from '../schema';

export interface ExtractionProgress {
  /** Conversations finished in this batch of work, and how many it has. */
  done: number;
  total: number;
  running: { conversationId: string; done: number; total: number } | null;
  failed: number;
  /** Extractors used by the finished jobs (newest batch; while work is live, the newest SAMPLE). */
  extractors: ('llm' | 'rule-based')[];
  llmId: string | null;
  /** Why the rule-based extractor ran (first reason seen), when it did. */
  fallbackReason: string | null;
  /** New candidates of the finished jobs (the whole batch once nothing is live; the screens show it then). */
  candidates: number;
}

/** Finished jobs whose results are read while work is live. */
export const SAMPLE = 50;
/** With nothing live, the batch is what finished in the hour before the newest finished job. */
const IDLE_WINDOW_MS = 3_600_000;

export async function readExtractionProgress(db: VaultDb, type: string): Promise<ExtractionProgress | null> {
  const range = (status: JobStatus, from: number | typeof Dexie.minKey = Dexie.minKey) =>
    db.jobs.where('[type+status+updatedAt]').between([type, status, from], [type, status, Dexie.maxKey], true, true);
  const [pending, leased, oldestPending] = await Promise.all([
    range('pending').count(),
    range('leased').toArray(),
    range('pending').first(),
  ]);
  const liveSince = [...leased.map((j) => j.createdAt), ...(oldestPending ? [oldestPending.updatedAt] : [])];
  const live = liveSince.length > 0;
  let since: number;
  if (live) since = Math.min(...liveSince);
  else {
    const newest = await Promise.all([range('done').last(), range('dead').last()]);
    const at = newest.filter((j): j is JobRecord => j !== undefined).map((j) => j.updatedAt);
    if (at.length === 0) return null;
    since = Math.max(...at) - IDLE_WINDOW_MS;
  }
  const [done, failed, finished] = await Promise.all([
    range('done', since).count(),
    range('dead', since).count(),
    live ? range('done', since).reverse().limit(SAMPLE).toArray() : range('done', since).toArray(),
  ]);
  const results = finished.map((j) => j.result as ExtractJobResult | null).filter((r): r is ExtractJobResult => r !== null);
  const running = leased[0];
  return {
    done,
    total: done + pending + leased.length,
    running: running
      ? {
          conversationId: (running.payload as { conversationId: string }).conversationId,
          done: running.progress?.done ?? 0,
          total: running.progress?.total ?? 0,
        }
      : null,
    failed,
    extractors: [...new Set(results.flatMap((r) => r.extractors))],
    llmId: results.find((r) => r.llmId)?.llmId ?? null,
    fallbackReason: results.flatMap((r) => r.fallbacks)[0]?.reason.message ?? null,
    candidates: results.reduce((n, r) => n + r.candidates, 0),
  };
}
