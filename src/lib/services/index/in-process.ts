/**
 * The index service run to completion in this process, over a vault that is already filled: the
 * CLI (`index`, `recall`, `eval locomo`), the agent tools and the tests. It queues a rebuild of the
 * whole vault (or takes the jobs an import queued) and runs the index jobs until none is left,
 * with the same handlers, the same unit recipe and the same saved state as the app's index worker
 * (and, given a model, its community summaries).
 */
import type { EmbedderChoice } from '../../core/api/embedder';
import { COMMUNITY_SUMMARY_JOB, indexRebuildJob } from '../../core/api/index-api';
import type { Llm } from '../../core/api/llm';
import { fail } from '../../core/errors';
import { staticModelLibrary } from '../../models/model-library';
import { JobRunner, type JobHandler } from '../../store/job-runner';
import type { Vault } from '../../store/vault';
import { openIndexCache, type HnswParams } from '../../store/vector-index-manifest';
import type { VectorStructure } from '../../store/vector-points';
import { RecallService, type RecallServiceOptions } from '../recall/recall-service';
import { readCandidates } from './candidates';
import { communitySummaryHandler } from './community-summaries';
import { inProcessEmbedderHost } from './in-process-host';
import { IndexService } from './index-service';
import type { VectorSearchMode } from './model-index';

export interface InProcessOptions {
  /** The embedder that serves from the start (default lexical); a fresh vault has no other index to keep serving. */
  embedder?: EmbedderChoice;
  vectorSearch?: VectorSearchMode;
  /** Seconds spent per job type are added here. */
  seconds?: Record<string, number>;
  rng?: () => number;
  /** Queue a rebuild of the whole vault first (default true; false runs only what is queued). */
  rebuild?: boolean;
  /** HNSW parameters of the graph built (default the app's). */
  hnsw?: Partial<HnswParams>;
  /** What holds the vectors (default 'auto', as the app: an int8 scan up to INT8_SCAN_UP_TO vectors). */
  vectorStructure?: VectorStructure | 'auto';
  /**
   * The index cache database (default one of this vault's own, `<vault db>-index`). The app's
   * workers share one between vaults, every entry named after its vault; tests of vault isolation
   * share one the same way.
   */
  cacheDatabase?: string;
  /**
   * Least time between two saves of the indexes during long work (default 30 s, so an interrupted
   * run resumes from a recent save). A host whose index cache dies with it (engram mcp's in-memory
   * vaults) saves only where a job ends, where the next step reloads what was saved.
   */
  saveEveryMs?: number;
  /** Documents per embedding batch (default the app's: index-parts.ts). */
  batch?: { lexical: number; neural: number };
  /**
   * A model, as the page lends the app's index worker one: the runner then also runs the
   * `summarize.communities` job (community-summaries.ts) when it is queued.
   */
  llm?: Llm | null;
}

export interface InProcessIndex {
  service: IndexService;
  /** A recall service over this index (the one read path). */
  recaller(options?: RecallServiceOptions): RecallService;
  /**
   * Runs queued index jobs until none is due; fails with the first job's error when one failed.
   * `hints: true` then makes every document's hints (core/recall/hints.ts), for a recall asked with them.
   */
  runJobs(options?: { hints?: boolean }): Promise<number>;
  close(): void;
}

function timed(handlers: Record<string, JobHandler>, seconds: Record<string, number> | undefined): Record<string, JobHandler> {
  if (!seconds) return handlers;
  return Object.fromEntries(
    Object.entries(handlers).map(([type, handler]) => [
      type,
      async (ctx: Parameters<JobHandler>[0]) => {
        const t0 = performance.now();
        try {
          return await handler(ctx);
        } finally {
          seconds[type] = (seconds[type] ?? 0) + (performance.now() - t0) / 1000;
        }
      },
    ]),
  );
}

export async function openInProcessIndex(vault: Vault, options: InProcessOptions = {}): Promise<InProcessIndex> {
  const cache = openIndexCache(options.cacheDatabase ?? `${vault.db.name}-index`);
  if (options.embedder && options.embedder.kind !== 'lexical') await vault.settings.set('index.serving', options.embedder);
  const service = new IndexService({
    vault,
    cache,
    host: inProcessEmbedderHost(),
    library: staticModelLibrary([]),
    saveEveryMs: options.saveEveryMs ?? 30_000,
    ...(options.rng ? { rng: options.rng } : {}),
    ...(options.vectorSearch ? { vectorSearch: options.vectorSearch } : {}),
    ...(options.hnsw ? { hnsw: options.hnsw } : {}),
    ...(options.vectorStructure ? { vectorStructure: options.vectorStructure } : {}),
    ...(options.batch ? { batch: options.batch } : {}),
  });
  await service.start();
  if (options.rebuild !== false) await vault.jobs.enqueue(indexRebuildJob(), Date.now());
  const llm = options.llm ?? null;
  const handlers = {
    ...service.handlers(),
    ...(llm
      ? {
          [COMMUNITY_SUMMARY_JOB]: communitySummaryHandler({
            parts: service.parts,
            read: (ids) => readCandidates(vault, ids),
            llm: () => llm,
            onWritten: () => service.structure.recheck(),
          }),
        }
      : {}),
  };
  const runner = new JobRunner({ jobs: vault.jobs, workerId: 'in-process', handlers: timed(handlers, options.seconds) });
  return {
    service,
    recaller: (recallOptions) => new RecallService(service.recallSources(), vault, recallOptions),
    async runJobs(jobOptions = {}) {
      let ran = 0;
      while ((await runner.runOnce()) === 'ran') ran++;
      const failed = [...(await vault.jobs.list('dead')), ...(await vault.jobs.list('pending')).filter((j) => j.error)];
      if (failed.length) fail('index/failed', `Indexing failed: ${failed[0]!.error?.message ?? 'unknown error'}`, failed[0]!.error);
      if (jobOptions.hints === true) await service.hints.settled();
      return ran;
    },
    close: () => cache.close(),
  };
}
