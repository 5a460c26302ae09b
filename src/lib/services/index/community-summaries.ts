/**
 * The `summarize.communities` job (run by the index worker's leader, which holds the graph and the
 * model the page lent it): each of the vault's largest entity communities whose stored summary is
 * missing or was written from other members or documents (`communitySignature`) is summarised by the
 * LLM (core/graph/community-summary.ts) and stored (table `communitySummaries`); summaries of
 * communities that no longer exist are dropped. The structural index then shows the model's summary
 * in the community's overview line (structure-view.ts). Without a model the job does nothing, and a
 * summary the model fails to write leaves the extractive one. Idempotent: a retry skips what is
 * current.
 */
import type { Llm } from '../../core/api/llm';
import type { StageBreakers } from '../../core/breaker/circuit-breaker';
import { guardedLlm, isBreakerRefusal } from '../../core/breaker/stage-guard';
import { entityCommunities } from '../../core/graph/communities';
import { COMMUNITY_SUMMARY_DOCUMENTS, communitySignature, summarizeCommunity } from '../../core/graph/community-summary';
import type { CandidateRecord } from '../../core/recall/ports';
import { CommunitySummariesRepo } from '../../store/community-summaries-repo';
import type { JobHandler } from '../../store/job-runner';
import type { IndexParts } from './index-parts';

/** Communities the model summarises, at most: the ones with the most documents (a model call each). */
export const COMMUNITY_SUMMARY_LIMIT = 50;

export interface CommunitySummaryDeps {
  parts: IndexParts;
  /** Documents as recall reads them (what is no longer retrievable is not sent to the model). */
  read: (ids: readonly string[]) => Promise<CandidateRecord[]>;
  /** The model the page lent, read at the start of each job; null: nothing to do. */
  llm: () => Llm | null;
  breakers?: StageBreakers;
  /** Per model call. */
  timeoutMs?: number;
  limit?: number;
  /** Told when the job wrote or dropped summaries (the structural index looks again: structure-view.ts). */
  onWritten?: () => void;
}

export interface CommunitySummaryCounts {
  /** Communities considered (the largest `limit`). */
  communities: number;
  /** Their summaries already current. */
  current: number;
  written: number;
  /** The model's answer was not a usable summary (or the call failed): the extractive one stays. */
  failed: number;
  /** The failures by error code (`llm/invalid-output`, `llm/timeout`, ...). */
  failures: Record<string, number>;
  /** Stored summaries of communities that no longer exist, dropped. */
  dropped: number;
  /** Why the job stopped early or did nothing (no model, breaker open); null when it ran through. */
  stopped: string | null;
}

export function communitySummaryHandler(deps: CommunitySummaryDeps): JobHandler {
  return async (ctx) => {
    const { parts } = deps;
    const repo = new CommunitySummariesRepo(parts.vault.db);
    const lent = deps.llm();
    const counts: CommunitySummaryCounts = { communities: 0, current: 0, written: 0, failed: 0, failures: {}, dropped: 0, stopped: null };
    if (!lent) return { ...counts, stopped: 'no language model is loaded' };
    const llm = deps.breakers ? guardedLlm(lent, { breaker: deps.breakers.get('summaries'), now: parts.now }) : lent;
    const communities = entityCommunities(parts.graph).slice(0, deps.limit ?? COMMUNITY_SUMMARY_LIMIT);
    counts.communities = communities.length;
    const stored = new Map((await repo.all()).map((row) => [row.id, row]));
    const todo = communities.filter((c) => stored.get(c.id)?.signature !== communitySignature(c));
    counts.current = communities.length - todo.length;
    ctx.progress(0, todo.length, 'communities');
    for (let i = 0; i < todo.length; i++) {
      if (ctx.signal.aborted) return null;
      const community = todo[i]!;
      const documents = await deps.read(community.docIds.slice(0, COMMUNITY_SUMMARY_DOCUMENTS));
      if (documents.length > 0) {
        let result: Awaited<ReturnType<typeof summarizeCommunity>>;
        try {
          result = await summarizeCommunity(
            community,
            documents.map((d) => ({ text: d.text, title: d.sourceTitle })),
            llm,
            { signal: ctx.signal, ...(deps.timeoutMs ? { timeoutMs: deps.timeoutMs } : {}) },
          );
        } catch (thrown) {
          if (ctx.signal.aborted) return null;
          throw thrown;
        }
        if (result.ok) {
          await repo.put({
            id: community.id,
            signature: communitySignature(community),
            text: result.text,
            llmId: result.llmId,
            at: parts.now(),
          });
          counts.written++;
        } else if (isBreakerRefusal(result.error)) {
          counts.stopped = result.error.message;
          break;
        } else {
          counts.failed++;
          counts.failures[result.error.code] = (counts.failures[result.error.code] ?? 0) + 1;
        }
      }
      ctx.progress(i + 1, todo.length, 'communities');
    }
    counts.dropped = await repo.prune(new Set(communities.map((c) => c.id)));
    if (counts.written > 0 || counts.dropped > 0) deps.onWritten?.();
    return counts;
  };
}
