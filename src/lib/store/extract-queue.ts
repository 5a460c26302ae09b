import { extractJob } from '../core/api/extract-api';
import type { JobSpec } from '../core/api/jobs';
import { indexingJobs } from './index-queue';
import type { Vault } from './vault';

type Published = { conversationIds: string[]; resourceIds: string[] };

/**
 * One `extract.conversation` job per newly visible conversation (resources are documents, not
 * conversations: they are not extracted).
 */
export function extractionJobs(published: Published): JobSpec[] {
  return published.conversationIds.map((id) => extractJob(id));
}

/**
 * `runImport`'s onPublished hook for extraction. The index worker's runner leases them after the
 * index.update that the same publish queued.
 */
export function queueExtraction(vault: Vault, now: () => number = Date.now) {
  return async (published: Published): Promise<void> => {
    await vault.jobs.enqueueAll(extractionJobs(published), now(), 'queueing extraction');
  };
}

/**
 * What the app does when an import publishes: index it, then extract candidates from it, queued
 * in one transaction (a 10,000-conversation file queues 10,001 jobs at once; one transaction each
 * waited behind the index worker's batches and held the report back for minutes).
 */
export function queueAfterPublish(vault: Vault, now: () => number = Date.now) {
  return async (published: Published): Promise<void> => {
    await vault.jobs.enqueueAll([...indexingJobs(published), ...extractionJobs(published)], now(), 'queueing indexing and extraction');
  };
}
