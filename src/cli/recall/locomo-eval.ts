/**
 * `eval locomo` end to end: for each sample a fresh in-memory vault filled through the importer,
 * its units indexed by the recall engine, and the core evaluation over it. Shared by the CLI, the
 * benchmark and the tests.
 */
import type { Embedder } from '../../lib/core/api/embedder';
import {
  runLocomoEval,
  type EvalMode,
  type LocomoDiagnostics,
  type LocomoReport,
  type QuestionOutcome,
} from '../../lib/core/recall/eval-locomo';
import type { LocomoSample } from '../../lib/core/recall/locomo-data';
import { LexicalEmbedder } from '../../lib/models/lexical-embedder';
import { RecallEngine, type VectorChoice } from '../../../workers/recall/engine';
import { DEFAULT_UNIT_OPTIONS, type UnitOptions } from '../../../workers/recall/units';
import { loadHnswlibQuietly } from './hnswlib-node';
import { importSample } from './locomo-vault';

export interface LocomoRunOptions {
  ks?: number[];
  budgets?: number[];
  modes?: EvalMode[];
  embedder?: Embedder;
  vectors?: VectorChoice;
  units?: UnitOptions;
  /** Recency decay in the funnel (default off: see RECENCY_FOR_ARCHIVES). */
  recency?: boolean;
  floor?: number | null;
  onQuestion?: (row: QuestionOutcome) => void;
  /** Called after each sample (progress). */
  onSample?: (sampleId: string, done: number, total: number) => void;
}

/**
 * LoCoMo is an archive read after the fact: its questions ask about every session alike and its
 * "now" (a day after the last session) is arbitrary, so a recency decay only penalizes the early
 * sessions. The evaluation switches it off by default; the product keeps it on for a living vault.
 */
export const RECENCY_FOR_ARCHIVES = false;

export async function runLocomo(
  samples: readonly LocomoSample[],
  options: LocomoRunOptions = {},
): Promise<{ report: LocomoReport; diagnostics: LocomoDiagnostics; vectors: string }> {
  const embedder = options.embedder ?? new LexicalEmbedder();
  if (options.vectors === 'hnsw' || options.vectors === 'auto') await loadHnswlibQuietly();
  let done = 0;
  const kinds = new Set<string>();
  const { report, diagnostics } = await runLocomoEval(samples, {
    clock: () => performance.now(),
    ...(options.ks ? { ks: options.ks } : {}),
    ...(options.budgets ? { budgets: options.budgets } : {}),
    ...(options.modes ? { modes: options.modes } : {}),
    ...(options.floor !== undefined ? { floor: options.floor } : {}),
    ...(options.onQuestion ? { onQuestion: options.onQuestion } : {}),
    recency: options.recency ?? RECENCY_FOR_ARCHIVES,
    indexSample: async (sample) => {
      const imported = await importSample(sample, options.units ?? DEFAULT_UNIT_OPTIONS);
      await imported.vault.db.delete();
      const engine = await RecallEngine.create({ embedder, vectors: options.vectors ?? 'exact', capacity: imported.units.length });
      await engine.add(imported.units);
      kinds.add(engine.vectors.kind);
      return {
        deps: engine.deps(),
        diaIdOf: (id) => imported.diaIdOf.get(id),
        close: () => options.onSample?.(sample.sample_id, ++done, samples.length),
      };
    },
  });
  return { report, diagnostics, vectors: [...kinds].join('+') || 'none' };
}
