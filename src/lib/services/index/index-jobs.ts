/**
 * The index worker's job handlers (run by its own JobRunner, which leases only these types):
 * - index.update: re-chunk the conversations and notes an import published, then queue embedding;
 * - index.embed: embed every document lacking a current vector (serving, then target embedder),
 *   batch by batch with a checkpoint after each, then save, promote a finished switch, check health;
 * - index.rebuild: re-chunk the whole vault (after a vault file was restored or merged), drop what
 *   no longer exists, reload the indexes from the tables and queue embedding.
 * Every handler can be stopped between batches and resumed from its checkpoint.
 */
import { INDEX_JOBS, indexEmbedJob, type IndexRebuildPayload, type IndexUpdatePayload } from '../../core/api/index-api';
import type { JobContext, JobHandler } from '../../store/job-runner';
import { withStoreTimeout } from '../../store/transaction';
import { embedBatch, embedPlan, healthDue, persist, persistIfDue, promoteIfComplete, runHealthCheck } from './embedding';
import type { IndexState } from './index-state';
import { loadState } from './load';
import { addCounts, reindexConversation, reindexNote, type UpdateCounts } from './updates';

const UPDATE_STEP = 25;

async function queueEmbedding(state: IndexState): Promise<void> {
  await state.vault.jobs.enqueue(indexEmbedJob(), state.now());
}

export function updateHandler(state: IndexState): JobHandler {
  return async (ctx) => {
    const payload = (ctx.job.payload ?? {}) as IndexUpdatePayload;
    const work = [
      ...(payload.conversationIds ?? []).map((id) => ({ kind: 'conversation' as const, id })),
      ...[...(payload.noteIds ?? []), ...(payload.resourceIds ?? [])].map((id) => ({ kind: 'note' as const, id })),
    ];
    let done = payload.done ?? 0;
    let counts: UpdateCounts = { added: 0, changed: 0, removed: 0 };
    while (done < work.length) {
      if (ctx.signal.aborted) return null;
      for (const item of work.slice(done, done + UPDATE_STEP)) {
        counts = addCounts(
          counts,
          item.kind === 'conversation' ? await reindexConversation(state, item.id) : await reindexNote(state, item.id),
        );
      }
      done = Math.min(work.length, done + UPDATE_STEP);
      await ctx.checkpoint({ ...payload, done }, { done, total: work.length, unit: 'sources' });
      state.changed();
    }
    await persist(state);
    await queueEmbedding(state);
    return counts;
  };
}

async function embedStages(state: IndexState, ctx: JobContext, start: number): Promise<number | null> {
  let done = start;
  for (;;) {
    const stages = embedPlan(state);
    const remaining = stages.reduce((n, s) => n + s.pending.length, 0);
    if (remaining === 0) return done;
    const total = done + remaining;
    for (const stage of stages) {
      const size = state.batchSize(stage.choice);
      const version = state.catalog.version;
      for (let at = 0; at < stage.pending.length; at += size) {
        if (ctx.signal.aborted) return null;
        // Documents changed meanwhile (an update ran in this worker): plan again.
        if (state.catalog.version !== version) break;
        done += await embedBatch(state, stage, stage.pending.slice(at, at + size), ctx.signal);
        await ctx.checkpoint({ done }, { done, total, unit: 'chunks' });
        await persistIfDue(state);
      }
    }
  }
}

export function embedHandler(state: IndexState): JobHandler {
  return async (ctx) => {
    const start = ((ctx.job.payload ?? {}) as { done?: number }).done ?? 0;
    try {
      const done = await embedStages(state, ctx, start);
      if (done === null) return null;
      await persist(state);
      const promoted = await promoteIfComplete(state);
      const health = healthDue(state) ? await runHealthCheck(state) : state.health;
      return { embedded: done - start, promoted, recallAt10: health?.recallAt10 ?? null };
    } finally {
      // A pause or a failure keeps what was embedded so far.
      await persist(state).catch(() => undefined);
    }
  };
}

async function visibleConversationIds(state: IndexState, afterId: string | null, limit: number): Promise<string[]> {
  const ids = await withStoreTimeout(state.vault.db.conversations.where('state').equals('visible').primaryKeys(), {
    label: 'listing conversations',
  });
  return ids
    .map(String)
    .sort()
    .filter((id) => afterId === null || id > afterId)
    .slice(0, limit);
}

/** Conversations with chunks but no longer visible, and notes with index entries but not kept. */
async function orphans(state: IndexState): Promise<{ conversations: string[]; notes: string[] }> {
  const conversations = new Set<string>();
  const notes = new Set<string>();
  for await (const page of state.chunks.pages()) {
    for (const chunk of page) {
      if (chunk.conversationId) conversations.add(chunk.conversationId);
      else if (chunk.parentType === 'resource') notes.add(chunk.parentId);
    }
  }
  for (const id of state.catalog.ids()) if (state.catalog.get(id)?.kind === 'note') notes.add(id);
  return { conversations: [...conversations], notes: [...notes] };
}

/** Vectors of records the index no longer holds, and of embedders that neither serve nor are being built. */
async function dropStrayVectors(state: IndexState): Promise<void> {
  const wanted = new Set(state.models().map((m) => m.embedderId));
  for (const model of await state.vectors.models()) if (!wanted.has(model)) await state.vectors.deleteModel(model);
  const stray = (await state.vectors.recordIds()).filter((id) => !state.catalog.has(id));
  for (let i = 0; i < stray.length; i += 500) await state.vectors.deleteRecords(stray.slice(i, i + 500));
}

export function rebuildHandler(state: IndexState): JobHandler {
  return async (ctx) => {
    const payload = (ctx.job.payload ?? {}) as IndexRebuildPayload;
    let afterId = payload.afterId ?? null;
    let done = payload.done ?? 0;
    const total = await state.vault.conversations.countVisible();
    if ((payload.phase ?? 'conversations') === 'conversations') {
      for (;;) {
        if (ctx.signal.aborted) return null;
        const ids = await visibleConversationIds(state, afterId, UPDATE_STEP);
        if (ids.length === 0) break;
        for (const id of ids) await reindexConversation(state, id);
        afterId = ids[ids.length - 1]!;
        done += ids.length;
        await ctx.checkpoint({ phase: 'conversations', afterId, done }, { done, total, unit: 'conversations' });
      }
      await ctx.checkpoint({ phase: 'notes', afterId, done });
    }
    const kept = await withStoreTimeout(state.vault.db.notes.where('status').equals('kept').primaryKeys(), { label: 'listing notes' });
    const stray = await orphans(state);
    for (const id of stray.conversations) await reindexConversation(state, id);
    for (const id of new Set([...kept.map(String), ...stray.notes])) await reindexNote(state, id);
    await dropStrayVectors(state);
    // Reload from the tables: vectors restored or merged from a vault file are caught up or rebuilt.
    await persist(state);
    await state.lock.run(() => loadState(state));
    await persist(state);
    await queueEmbedding(state);
    return { conversations: done };
  };
}

export function indexHandlers(state: IndexState): Record<string, JobHandler> {
  return {
    [INDEX_JOBS.update]: updateHandler(state),
    [INDEX_JOBS.embed]: embedHandler(state),
    [INDEX_JOBS.rebuild]: rebuildHandler(state),
  };
}
