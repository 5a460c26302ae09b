/**
 * `eval locomo` end to end through the app's path: for each sample a fresh vault filled through
 * the importer, indexed by the index service (the app's chunks, BM25 recipe and vector index) and
 * asked through the recall service. Shared by the CLI, the benchmark and the regression test, so
 * the figures measure what the Recall screen runs, by construction.
 */
import type { EmbedderChoice } from '../../core/api/embedder';
import type { Llm } from '../../core/api/llm';
import { StageBreakers } from '../../core/breaker/circuit-breaker';
import { ModelStageAccumulator, type ModelStageReport } from '../../core/recall/eval-models';
import type { Reranker } from '../../core/recall/rerank';
import {
  runLocomoEval,
  type EvalMode,
  type LocomoDiagnostics,
  type LocomoReport,
  type QuestionOutcome,
} from '../../core/recall/eval-locomo';
import type { LocomoSample } from '../../core/recall/locomo-data';
import type { RecallOptions } from '../../core/recall/recall';
import { VaultFailure } from '../../core/errors';
import { openInProcessIndex } from '../index/in-process';
import type { VectorSearchMode } from '../index/model-index';
import { extractEveryConversation } from './eval-vault';
import { importSample, type SessionTitle } from './locomo-vault';

export interface LocomoRunOptions {
  ks?: number[];
  budgets?: number[];
  modes?: EvalMode[];
  embedder?: EmbedderChoice;
  vectors?: VectorSearchMode;
  /** Recency decay in scoring (default off: see RECENCY_FOR_ARCHIVES). */
  recency?: boolean;
  /** Further recall settings under test (floor, width, weights...). */
  recall?: RecallOptions;
  titleOf?: SessionTitle;
  onQuestion?: (row: QuestionOutcome) => void;
  /**
   * The model stages under test, in the funnel mode only (the other modes stay model-free
   * baselines): the LLM for intent, decomposition and the fit-gate, the cross-encoder. One set of
   * breakers for the whole run, as one app session has.
   */
  models?: { llm?: Llm | null; reranker?: Reranker | null; breakers?: StageBreakers; gateTimeoutMs?: number };
  /** Called after each sample (progress). */
  onSample?: (sampleId: string, done: number, total: number) => void;
  /**
   * Run the extraction job (rule-based) on every session before indexing, as the app does after an
   * import: its candidates are indexed as notes and its session summaries become structural units.
   * Off by default, so the figures stay comparable with earlier runs.
   */
  extract?: boolean;
}

/**
 * LoCoMo is an archive read after the fact: its questions ask about every session alike and its
 * "now" (a day after the last session) is arbitrary, so a recency decay only penalizes the early
 * sessions. The evaluation switches it off by default; the app keeps it on for a living vault
 * (`eval locomo --recency on` measures the app's setting).
 */
export const RECENCY_FOR_ARCHIVES = false;

export async function runLocomo(
  samples: readonly LocomoSample[],
  options: LocomoRunOptions = {},
): Promise<{ report: LocomoReport; diagnostics: LocomoDiagnostics; vectors: VectorSearchMode; models: ModelStageReport | null }> {
  const vectors = options.vectors ?? 'hnsw';
  let done = 0;
  const models = options.models ?? null;
  const breakers = models?.breakers ?? new StageBreakers({ now: () => Date.now() });
  const accumulator = models ? new ModelStageAccumulator({ llm: models.llm?.id ?? null, reranker: models.reranker?.id ?? null }) : null;
  const { report, diagnostics } = await runLocomoEval(samples, {
    clock: () => performance.now(),
    ...(options.ks ? { ks: options.ks } : {}),
    ...(options.budgets ? { budgets: options.budgets } : {}),
    ...(options.modes ? { modes: options.modes } : {}),
    ...(options.onQuestion ? { onQuestion: options.onQuestion } : {}),
    recall: {
      recency: options.recency ?? RECENCY_FOR_ARCHIVES,
      ...(models ? { llmDecompose: false, llmIntent: false } : {}),
      ...options.recall,
    },
    ...(models ? { funnelRecall: { llmDecompose: true, llmIntent: true }, onFunnel: (o) => accumulator?.observe(o) } : {}),
    indexSample: async (sample) => {
      const { vault, diaIdOf } = await importSample(sample, options.titleOf ? { titleOf: options.titleOf } : {});
      if (options.extract) await extractEveryConversation(vault);
      const index = await openInProcessIndex(vault, { vectorSearch: vectors, ...(options.embedder ? { embedder: options.embedder } : {}) });
      try {
        await index.runJobs({ hints: Boolean(options.recall?.hints) });
      } catch (thrown) {
        index.close();
        await vault.db.delete();
        throw thrown;
      }
      const recaller = index.recaller(
        models
          ? {
              llm: () => models.llm ?? null,
              reranker: () => models.reranker ?? null,
              breakers,
              ...(models.gateTimeoutMs ? { gateTimeoutMs: models.gateTimeoutMs } : {}),
            }
          : {},
      );
      const embedderId = (await index.service.servingEmbedder()).id;
      return {
        embedderId,
        diaIdOf: (id) => diaIdOf.get(id),
        recall: async (prompt, { now, ...recallOptions }) => {
          const answer = await recaller.answer({ prompt }, { ...recallOptions, now, writeBack: false });
          if (!answer.ok) throw new VaultFailure(answer.error);
          return answer.value.result;
        },
        close: async () => {
          options.onSample?.(sample.sample_id, ++done, samples.length);
          index.close();
          await vault.db.delete();
        },
      };
    },
  });
  return { report, diagnostics, vectors, models: accumulator?.report() ?? null };
}
