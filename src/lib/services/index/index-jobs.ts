/**
 * The index worker's job handlers (run by its own JobRunner, which leases only these types):
 * - index.update: re-chunk the conversations and notes an import published or a note action named,
 *   write those notes' triples, then queue embedding;
 * - index.embed: embed every document lacking a current vector (serving, then target embedder),
 *   batch by batch with a checkpoint after each, then save, promote a finished switch, check health;
 * - index.rebuild: re-chunk the whole vault (after a vault file was restored or merged), drop what
 *   no longer exists, reload the indexes from the tables, clear the LLM's community summaries (written
 *   from the vault as it was), write every extracted unit's triples again and queue embedding;
 * - index.triples: write the triples an older recipe wrote again (queued at start, triples.ts).
 * Every handler can be stopped between batches and resumed from its checkpoint.
 */
import { INDEX_JOBS, indexEmbedJob, type IndexRebuildPayload, type IndexUpdatePayload } from '../../core/api/index-api';
import { CommunitySummariesRepo } from '../../store/community-summaries-repo';
import type { JobContext, JobHandler } from '../../store/job-runner';
import { withStoreTimeout } from '../../store/transaction';
import { embedBatch, embedPlan, persist, persistIfDue, promoteIfComplete, runHealthCheck, textsFor } from './embedding';
import type { IndexParts } from './index-parts';
import { loadState } from './load';
import { markTriplesStale, syncAllTriples, syncTriples } from './triples';
import { addCounts, reindexConversations, reindexNote, stepReader, type UpdateCounts } from './updates';

const UPDATE_STEP = 25;

async function queueEmbedding(parts: IndexParts): Promise<void> {
  await parts.vault.jobs.enqueue(indexEmbedJob(), parts.now());
}

export function updateHandler(parts: IndexParts): JobHandler {
  return async (ctx) => {
    const payload = (ctx.job.payload ?? {}) as IndexUpdatePayload;
    const work = [
      ...(payload.conversationIds ?? []).map((id) => ({ kind: 'conversation' as const, id })),
      ...[...(payload.noteIds ?? []), ...(payload.resourceIds ?? [])].map((id) => ({ kind: 'note' as const, id })),
    ];
    let done = payload.done ?? 0;
    let counts: UpdateCounts = { added: 0, changed: 0, removed: 0 };
    const conversationsOf = (from: number) =>
      work
        .slice(from, from + UPDATE_STEP)
        .filter((item) => item.kind === 'conversation')
        .map((item) => item.id);
    const read = stepReader(parts);
    while (done < work.length) {
      if (ctx.signal.aborted) return null;
      const step = work.slice(done, done + UPDATE_STEP);
      const conversations = conversationsOf(done);
      const rows = read(conversations, conversationsOf(done + UPDATE_STEP));
      counts = addCounts(counts, await reindexConversations(parts, conversations, rows));
      const notes = step.filter((item) => item.kind === 'note').map((item) => item.id);
      for (const id of notes) counts = addCounts(counts, await reindexNote(parts, id));
      // The notes' triples as they are now (a candidate has no index entry, but has triples while a
      // person may keep it). Derived: a failure does not stop indexing; the next start writes them.
      await syncTriples(parts.vault.db, notes).catch(() => markTriplesStale(parts.vault.db));
      done = Math.min(work.length, done + UPDATE_STEP);
      await ctx.checkpoint({ ...payload, done }, { done, total: work.length, unit: 'sources' });
      parts.feed.emit();
    }
    await persist(parts);
    await queueEmbedding(parts);
    return counts;
  };
}

async function embedStages(parts: IndexParts, ctx: JobContext, start: number): Promise<number | null> {
  let done = start;
  for (;;) {
    const stages = embedPlan(parts);
    const remaining = stages.reduce((n, s) => n + s.pending.length, 0);
    if (remaining === 0) return done;
    const total = done + remaining;
    for (const stage of stages) {
      const size = parts.batchSize(stage.choice);
      const version = parts.catalog.version;
      // The next batch's texts are read while this one is embedded and written.
      let ahead: Promise<Map<string, string>> | null = null;
      for (let at = 0; at < stage.pending.length; at += size) {
        if (ctx.signal.aborted) return null;
        // Documents changed meanwhile (an update ran in this worker): plan again.
        if (parts.catalog.version !== version) break;
        const batch = stage.pending.slice(at, at + size);
        const texts = ahead ?? textsFor(parts, batch);
        const next = stage.pending.slice(at + size, at + 2 * size);
        ahead = next.length ? textsFor(parts, next) : null;
        ahead?.catch(() => undefined);
        done += await embedBatch(parts, stage, batch, ctx.signal, texts);
        await ctx.checkpoint({ done }, { done, total, unit: 'chunks' });
        await persistIfDue(parts);
      }
    }
  }
}

export function embedHandler(parts: IndexParts): JobHandler {
  return async (ctx) => {
    const start = ((ctx.job.payload ?? {}) as { done?: number }).done ?? 0;
    try {
      const done = await embedStages(parts, ctx, start);
      if (done === null) return null;
      await persist(parts);
      const promoted = await promoteIfComplete(parts);
      const health = parts.health.due(parts.indexes.serving.model, parts.now()) ? await runHealthCheck(parts) : parts.health.report;
      return { embedded: done - start, promoted, recallAt10: health?.recallAt10 ?? null };
    } finally {
      // A pause or a failure keeps what was embedded so far.
      await persist(parts).catch(() => undefined);
    }
  };
}

/** Every visible conversation's id, sorted (the rebuild's order, resumed after its checkpoint's id). */
async function visibleConversationIds(parts: IndexParts): Promise<string[]> {
  const ids = await withStoreTimeout(parts.vault.db.conversations.where('state').equals('visible').primaryKeys(), {
    label: 'listing conversations',
  });
  return ids.map(String).sort();
}

/** Conversations with chunks but no longer visible, and notes with index entries but not kept. */
async function orphans(parts: IndexParts): Promise<{ conversations: string[]; notes: string[] }> {
  const conversations = new Set<string>();
  const notes = new Set<string>();
  for await (const page of parts.chunks.pages()) {
    for (const chunk of page) {
      if (chunk.conversationId) conversations.add(chunk.conversationId);
      else if (chunk.parentType === 'resource') notes.add(chunk.parentId);
    }
  }
  for (const id of parts.catalog.ids()) if (parts.catalog.get(id)?.kind === 'note') notes.add(id);
  return { conversations: [...conversations], notes: [...notes] };
}

/** Vectors of records the index no longer holds, and of embedders that neither serve nor are being built. */
async function dropStrayVectors(parts: IndexParts): Promise<void> {
  const wanted = new Set(parts.indexes.models().map((m) => m.embedderId));
  for (const model of await parts.vectors.models()) if (!wanted.has(model)) await parts.vectors.deleteModel(model);
  const stray = (await parts.vectors.recordIds()).filter((id) => !parts.catalog.has(id));
  for (let i = 0; i < stray.length; i += 500) await parts.vectors.deleteRecords(stray.slice(i, i + 500));
}

export function rebuildHandler(parts: IndexParts): JobHandler {
  return async (ctx) => {
    const payload = (ctx.job.payload ?? {}) as IndexRebuildPayload;
    let afterId = payload.afterId ?? null;
    let done = payload.done ?? 0;
    const total = await parts.vault.conversations.countVisible();
    if ((payload.phase ?? 'conversations') === 'conversations') {
      // Listed once (not once a step: at 10k conversations that read every key 400 times). A
      // conversation imported meanwhile is indexed by its import's own index.update job.
      const all = await visibleConversationIds(parts);
      const resumeAfter = afterId;
      const from = resumeAfter === null ? 0 : all.findIndex((id) => id > resumeAfter);
      const read = stepReader(parts);
      for (let at = from; at >= 0 && at < all.length; at += UPDATE_STEP) {
        if (ctx.signal.aborted) return null;
        const ids = all.slice(at, at + UPDATE_STEP);
        await reindexConversations(parts, ids, read(ids, all.slice(at + UPDATE_STEP, at + 2 * UPDATE_STEP)));
        afterId = ids[ids.length - 1]!;
        done += ids.length;
        await ctx.checkpoint({ phase: 'conversations', afterId, done }, { done, total, unit: 'conversations' });
      }
      await ctx.checkpoint({ phase: 'notes', afterId, done });
    }
    const kept = await withStoreTimeout(parts.vault.db.notes.where('status').equals('kept').primaryKeys(), { label: 'listing notes' });
    const stray = await orphans(parts);
    for (let at = 0; at < stray.conversations.length; at += UPDATE_STEP)
      await reindexConversations(parts, stray.conversations.slice(at, at + UPDATE_STEP));
    for (const id of new Set([...kept.map(String), ...stray.notes])) await reindexNote(parts, id);
    await dropStrayVectors(parts);
    // Reload from the tables: vectors restored or merged from a vault file are caught up or rebuilt.
    await persist(parts);
    // The restore or merge rewrote the chunks table under the saved documents: read it, not them.
    await parts.lock.run(() => loadState(parts, { fromTables: true }));
    await persist(parts);
    // The LLM's community summaries were written from the vault as it was: rewritten from this one.
    await new CommunitySummariesRepo(parts.vault.db).clear();
    // Derived: a failure does not fail the rebuild; the next start writes them (index.triples).
    await syncAllTriples(parts.vault.db, { clear: true }).catch(() => markTriplesStale(parts.vault.db));
    await queueEmbedding(parts);
    return { conversations: done };
  };
}

/** Writes the triples of every unit whose rows an older recipe wrote (or none yet), then marks them current. */
export function triplesHandler(parts: IndexParts): JobHandler {
  return async (ctx) => {
    // Stopped (null), it runs again from the start: notes already current are skipped.
    return syncAllTriples(parts.vault.db, { signal: ctx.signal, onProgress: (done, total) => ctx.progress(done, total, 'notes') });
  };
}

export function indexHandlers(parts: IndexParts): Record<string, JobHandler> {
  return {
    [INDEX_JOBS.update]: updateHandler(parts),
    [INDEX_JOBS.embed]: embedHandler(parts),
    [INDEX_JOBS.rebuild]: rebuildHandler(parts),
    [INDEX_JOBS.triples]: triplesHandler(parts),
  };
}
