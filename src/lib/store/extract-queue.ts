import { extractJob } from '../core/api/extract-api';
import { queueIndexing } from './index-queue';
import type { Vault } from './vault';

/**
 * `runImport`'s onPublished hook for extraction: one `extract.conversation` job per newly visible
 * conversation (resources are documents, not conversations: they are not extracted). The index
 * worker's runner leases them after the index.update that the same publish queued.
 */
export function queueExtraction(vault: Vault, now: () => number = Date.now) {
  return async (published: { conversationIds: string[]; resourceIds: string[] }): Promise<void> => {
    for (const id of published.conversationIds) await vault.jobs.enqueue(extractJob(id), now());
  };
}

/** What the app does when an import publishes: index it, then extract candidates from it. */
export function queueAfterPublish(vault: Vault, now: () => number = Date.now) {
  const index = queueIndexing(vault, now);
  const extract = queueExtraction(vault, now);
  return async (published: { conversationIds: string[]; resourceIds: string[] }): Promise<void> => {
    await index(published);
    await extract(published);
  };
}
