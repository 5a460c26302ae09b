import type { ExtractJobResult } from '../core/api/extract-api';
import type { JobRecord } from '../core/records';

/**
 * Extraction's progress as the Inbox and Import screens show it, read live from the job queue:
 * how many conversations are done of how many queued, the running one's windows, and which
 * extractor ran (and why the rule-based one ran, when it did).
 */
export interface ExtractionProgress {
  /** Conversations finished in this batch of work, and how many it has. */
  done: number;
  total: number;
  running: { conversationId: string; done: number; total: number } | null;
  failed: number;
  /** Extractors used by the finished jobs (newest batch). */
  extractors: ('llm' | 'rule-based')[];
  llmId: string | null;
  /** Why the rule-based extractor ran (first reason seen), when it did. */
  fallbackReason: string | null;
  candidates: number;
}

export function summarizeJobs(jobs: readonly JobRecord[]): ExtractionProgress {
  const live = jobs.filter((j) => j.status === 'pending' || j.status === 'leased');
  // The batch: live jobs and those finished since the oldest live one was queued (or the last hour's).
  const since = live.length > 0 ? Math.min(...live.map((j) => j.createdAt)) : Math.max(0, ...jobs.map((j) => j.updatedAt)) - 3_600_000;
  const batch = jobs.filter((j) => live.includes(j) || j.updatedAt >= since);
  const finished = batch.filter((j) => j.status === 'done');
  const results = finished.map((j) => j.result as ExtractJobResult | null).filter((r): r is ExtractJobResult => r !== null);
  const leased = batch.find((j) => j.status === 'leased');
  const extractors = [...new Set(results.flatMap((r) => r.extractors))];
  const fallback = results.flatMap((r) => r.fallbacks)[0]?.reason.message ?? null;
  return {
    done: finished.length,
    total: batch.filter((j) => j.status !== 'dead').length,
    running: leased
      ? {
          conversationId: (leased.payload as { conversationId: string }).conversationId,
          done: leased.progress?.done ?? 0,
          total: leased.progress?.total ?? 0,
        }
      : null,
    failed: batch.filter((j) => j.status === 'dead').length,
    extractors,
    llmId: results.find((r) => r.llmId)?.llmId ?? null,
    fallbackReason: fallback,
    candidates: results.reduce((n, r) => n + r.candidates, 0),
  };
}
