import { indexUpdateJob } from '../core/api/index-api';
import type { JobSpec } from '../core/api/jobs';
import type { Vault } from './vault';

/** The index.update job for a file's newly visible conversations and resources (none when empty). */
export function indexingJobs(published: { conversationIds: string[]; resourceIds: string[] }): JobSpec[] {
  if (published.conversationIds.length + published.resourceIds.length === 0) return [];
  return [indexUpdateJob(published)];
}

/**
 * `runImport`'s onPublished hook: every file's newly visible conversations and resources are
 * queued for indexing (the index worker leases `index.update`; BM25 and the lexical vectors serve
 * them as soon as it has run, neural embedding follows in the background).
 */
export function queueIndexing(vault: Vault, now: () => number = Date.now) {
  return async (published: { conversationIds: string[]; resourceIds: string[] }): Promise<void> => {
    await vault.jobs.enqueueAll(indexingJobs(published), now(), 'queueing indexing');
  };
}
