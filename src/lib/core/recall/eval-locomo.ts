/**
 * The LoCoMo evaluation core (pure: the caller reads the file and supplies, per sample, an index
 * that answers through the app's read path, and a clock). Every question of categories 1-4 runs
 * through each mode and is scored by evidence recall at k items and at a token budget; category 5
 * (unanswerable) runs through the funnel and counts how often it reaches "holds nothing".
 */
import {
  mean,
  packagePrecision,
  packageTokens,
  percentile,
  recallAtBudget,
  recallAtK,
  round4,
  type RankedEvidenceItem,
} from './eval-metrics';
import type { FunnelObservation } from './eval-models';
import { calibrateFloor, type CalibrateOptions, type FloorCalibrationResult, type FloorObservation } from './floor-calibration';
import { normalizeEvidenceIds, sampleToConversations, type LocomoQa, type LocomoSample } from './locomo-data';
import type { RecallOptions } from './recall';
import type { Candidate, RecallResult } from './types';

export const EVAL_MODES = ['bm25', 'vector', 'hybrid', 'funnel'] as const;
export type EvalMode = (typeof EVAL_MODES)[number];

export interface ModeReport {
  recallAtK: Record<string, number>;
  recallAtBudget: Record<string, number>;
  byCategory: Record<string, { questions: number; recallAtK: Record<string, number>; recallAtBudget: Record<string, number> }>;
  latencyMs: { p50: number; p95: number };
  /**
   * Mean share of the package's items that hold evidence, over the answerable questions that got a
   * package (the mode's whole answer: `depth` items for bm25 / vector / hybrid, the funnel's kept
   * items for funnel).
   */
  packagePrecision: number;
  /** Mean tokens of the package's items (as stored), over the answerable questions that got a package. */
  meanPackageTokens: number;
  /** Share of the answerable questions answered "the vault holds nothing on this" (false refusals). */
  refusedRate: number;
}

/** The report shape of the issue, exactly. */
export interface LocomoReport {
  embedder: string;
  questions: number;
  modes: Partial<Record<EvalMode, ModeReport>>;
  /**
   * Category 5 (unanswerable) through the funnel: how often it says the vault holds nothing; and
   * the funnel's refusals of answerable questions (categories 1-4), the false refusals.
   */
  unanswerable: { holdsNothingRate: number; falseRefusalRate: number };
}

export interface LocomoDiagnostics {
  samples: number;
  unanswerableQuestions: number;
  /** Answerable questions left out because none of their evidence ids names a turn of the sample. */
  skippedQuestions: number;
  malformedEvidence: string[];
  /** Well-formed evidence ids that name no turn of their sample. */
  unknownEvidence: string[];
  /** Funnel candidates (top width, before the floor) of answerable questions, for floor calibration. */
  floorObservations: FloorObservation[];
  gateRuns: Record<string, number>;
  /** The same figures per sample (conversation), to check that a change helps each one, not only the total. */
  bySample: Record<string, SampleFigures>;
}

export interface SampleFigures {
  /** Answerable questions scored. */
  questions: number;
  modes: Partial<Record<EvalMode, Pick<ModeReport, 'recallAtK' | 'recallAtBudget'>>>;
  /** Category 5 asked of the funnel and the share it refused; the funnel's refusals of answerable questions. */
  unanswerable: { questions: number; holdsNothingRate: number; falseRefusalRate: number };
}

/** The options of one recall as the evaluation asks it, with the wall-clock time it is read at. */
export type EvalRecallOptions = RecallOptions & { now: number };

/**
 * One sample indexed by the app's path: `recall` runs the app's read path over it (the index
 * service's sources and the recall service in practice); `diaIdOf` maps a stored message id back
 * to its LoCoMo dia_id.
 */
export interface SampleIndex {
  embedderId: string;
  recall(prompt: string, options: EvalRecallOptions): Promise<RecallResult>;
  /** Canonical dia_id of a message id behind an indexed record; undefined when it names no turn. */
  diaIdOf(messageId: string): string | undefined;
  /** Releases what the index holds (an in-memory vault); called after the sample's questions. */
  close?(): Promise<void> | void;
}

export interface LocomoEvalOptions {
  indexSample(sample: LocomoSample): Promise<SampleIndex>;
  clock: () => number;
  /** Overrides for every recall (recency, floor, width, weights...): the settings under test. */
  recall?: RecallOptions;
  /** Sees every answerable question's outcome per mode (analysis; not part of the report). */
  onQuestion?(row: QuestionOutcome): void;
  /** Sees every funnel recall, category 5 included, with its whole result (the model stages' figures, eval-models.ts). */
  onFunnel?(observation: FunnelObservation): void;
  /** Recall settings for the funnel mode only (the model stages: the other modes stay model-free baselines). */
  funnelRecall?: RecallOptions;
  ks?: readonly number[];
  budgets?: readonly number[];
  modes?: readonly EvalMode[];
  /** Items ranked by the non-funnel modes (deep enough to fill the largest budget). */
  depth?: number;
}

const DAY_MS = 86_400_000;

interface QuestionRun {
  result: RecallResult;
  ranked: Candidate[];
  considered: Candidate[];
  holdsNothing: boolean;
  gate: string;
}

type ModeOptions = Required<Pick<LocomoEvalOptions, 'ks' | 'budgets' | 'modes'>> & LocomoEvalOptions;

/**
 * What each mode asks of the read path: `bm25` and `vector` are one searcher's lists alone and
 * `hybrid` both fused, all without the funnel and ranked `depth` deep; `funnel` is the app's
 * default path.
 */
export function modeOptions(mode: EvalMode, depth = 60): RecallOptions {
  if (mode === 'funnel') return { funnel: true, perListK: depth };
  return { funnel: false, lists: mode === 'hybrid' ? 'hybrid' : mode, perListK: depth, limit: depth };
}

async function runMode(mode: EvalMode, question: string, index: SampleIndex, now: number, o: LocomoEvalOptions): Promise<QuestionRun> {
  const extra = mode === 'funnel' ? o.funnelRecall : undefined;
  const r = await index.recall(question, { ...modeOptions(mode, o.depth), ...o.recall, ...extra, now });
  const considered = [...r.items, ...r.dropped.filter((d) => d.stage !== 'width').map((d) => d.candidate)];
  return { result: r, ranked: r.items, considered, holdsNothing: r.holdsNothing !== null, gate: r.gate.ran ? 'ran' : r.gate.reason };
}

interface Row {
  sampleId: string;
  category: number;
  atK: Record<string, number>;
  atBudget: Record<string, number>;
  ms: number;
  /** Null when the package was empty (a refusal). */
  precision: number | null;
  tokens: number;
  refused: boolean;
}

/** One answerable question in one mode, as `onQuestion` sees it. */
export interface QuestionOutcome extends Row {
  question: string;
  mode: EvalMode;
  evidence: string[];
  items: RankedEvidenceItem[];
}

function summarize(rows: readonly Row[], ks: readonly number[], budgets: readonly number[]): ModeReport {
  const agg = (subset: readonly Row[]) => ({
    recallAtK: Object.fromEntries(ks.map((k) => [String(k), round4(mean(subset.map((r) => r.atK[String(k)]!)))])),
    recallAtBudget: Object.fromEntries(budgets.map((b) => [String(b), round4(mean(subset.map((r) => r.atBudget[String(b)]!)))])),
  });
  const categories = [...new Set(rows.map((r) => r.category))].sort((a, b) => a - b);
  const byCategory = Object.fromEntries(
    categories.map((c) => {
      const subset = rows.filter((r) => r.category === c);
      return [String(c), { questions: subset.length, ...agg(subset) }];
    }),
  );
  const ms = rows.map((r) => r.ms);
  const answered = rows.filter((r) => r.precision !== null);
  return {
    ...agg(rows),
    byCategory,
    latencyMs: { p50: round4(percentile(ms, 50)), p95: round4(percentile(ms, 95)) },
    packagePrecision: round4(mean(answered.map((r) => r.precision!))),
    meanPackageTokens: round4(mean(answered.map((r) => r.tokens))),
    refusedRate: round4(rows.length === 0 ? 0 : rows.filter((r) => r.refused).length / rows.length),
  };
}

interface Accumulator {
  rows: Map<EvalMode, Row[]>;
  diagnostics: LocomoDiagnostics;
  holdsNothing: number;
  /** Category-5 questions asked and refused, per sample. */
  unanswerableBySample: Map<string, { asked: number; held: number }>;
  embedderId: string;
}

/** Resolvable evidence of a question (canonical ids naming a turn of the sample), noting the rest. */
function questionEvidence(raw: readonly string[], sampleId: string, known: ReadonlySet<string>, d: LocomoDiagnostics): string[] {
  const { ids, malformed } = normalizeEvidenceIds(raw);
  d.malformedEvidence.push(...malformed);
  const unknown = ids.filter((id) => !known.has(id));
  d.unknownEvidence.push(...unknown.map((id) => `${sampleId}/${id}`));
  return ids.filter((id) => known.has(id));
}

/** Every canonical dia_id of the sample, and the time the archive is read at (a day after its last session). */
function sampleFrame(sample: LocomoSample): { known: Set<string>; now: number } {
  const conversations = sampleToConversations(sample);
  const known = new Set(conversations.flatMap((c) => c.messages.map((m) => m.diaId)));
  const last = Math.max(0, ...conversations.map((c) => c.createdAt ?? 0));
  return { known, now: last + DAY_MS };
}

async function evalSample(sample: LocomoSample, o: ModeOptions, acc: Accumulator): Promise<void> {
  const index = await o.indexSample(sample);
  try {
    const { known, now } = sampleFrame(sample);
    acc.embedderId = index.embedderId;
    const toItem = (c: Candidate): RankedEvidenceItem => ({
      diaIds: c.record.messageIds.flatMap((id) => index.diaIdOf(id) ?? []),
      tokens: c.record.tokenCount,
    });
    for (const qa of sample.qa) await evalQuestion(qa, sample, { index, known, now, toItem }, o, acc);
  } finally {
    await index.close?.();
  }
}

interface QuestionContext {
  index: SampleIndex;
  known: ReadonlySet<string>;
  now: number;
  toItem: (c: Candidate) => RankedEvidenceItem;
}

async function evalQuestion(qa: LocomoQa, sample: LocomoSample, q: QuestionContext, o: ModeOptions, acc: Accumulator): Promise<void> {
  const d = acc.diagnostics;
  if (qa.category === 5) {
    d.unanswerableQuestions += 1;
    const run = await runMode('funnel', qa.question, q.index, q.now, o);
    if (run.holdsNothing) acc.holdsNothing += 1;
    const own = acc.unanswerableBySample.get(sample.sample_id) ?? { asked: 0, held: 0 };
    acc.unanswerableBySample.set(sample.sample_id, { asked: own.asked + 1, held: own.held + (run.holdsNothing ? 1 : 0) });
    o.onFunnel?.({ result: run.result, category: 5, evidence: [], toItem: q.toItem });
    return;
  }
  const evidence = questionEvidence(qa.evidence, sample.sample_id, q.known, d);
  if (evidence.length === 0) {
    d.skippedQuestions += 1;
    return;
  }
  for (const mode of o.modes) {
    const started = o.clock();
    const run = await runMode(mode, qa.question, q.index, q.now, o);
    const ms = o.clock() - started;
    const items = run.ranked.map(q.toItem);
    const row: Row = {
      sampleId: sample.sample_id,
      category: qa.category,
      atK: Object.fromEntries(o.ks.map((k) => [String(k), recallAtK(evidence, items, k)])),
      atBudget: Object.fromEntries(o.budgets.map((b) => [String(b), recallAtBudget(evidence, items, b)])),
      ms,
      precision: packagePrecision(evidence, items),
      tokens: packageTokens(items),
      refused: run.holdsNothing,
    };
    acc.rows.get(mode)!.push(row);
    o.onQuestion?.({ question: qa.question, mode, evidence, items, ...row });
    if (mode !== 'funnel') continue;
    o.onFunnel?.({ result: run.result, category: qa.category, evidence, toItem: q.toItem });
    d.gateRuns[run.gate] = (d.gateRuns[run.gate] ?? 0) + 1;
    for (const c of run.considered) {
      if (c.signals.vectorSimilarity === null) continue;
      d.floorObservations.push({
        similarity: c.signals.vectorSimilarity,
        evidence: q.toItem(c).diaIds.some((id) => evidence.includes(id)),
      });
    }
  }
}

function figuresBySample(samples: readonly LocomoSample[], acc: Accumulator, o: ModeOptions): Record<string, SampleFigures> {
  const out: Record<string, SampleFigures> = {};
  for (const { sample_id: id } of samples) {
    const rowsOf = (m: EvalMode) => (acc.rows.get(m) ?? []).filter((r) => r.sampleId === id);
    const modes = Object.fromEntries(
      o.modes.map((m) => {
        const { recallAtK, recallAtBudget } = summarize(rowsOf(m), o.ks, o.budgets);
        return [m, { recallAtK, recallAtBudget }];
      }),
    );
    const funnel = rowsOf('funnel');
    const unanswerable = acc.unanswerableBySample.get(id) ?? { asked: 0, held: 0 };
    out[id] = {
      questions: rowsOf(o.modes[0]!).length,
      modes,
      unanswerable: {
        questions: unanswerable.asked,
        holdsNothingRate: unanswerable.asked === 0 ? 0 : round4(unanswerable.held / unanswerable.asked),
        falseRefusalRate: funnel.length === 0 ? 0 : round4(funnel.filter((r) => r.refused).length / funnel.length),
      },
    };
  }
  return out;
}

/** The funnel's refusals of answerable questions (0 when the funnel did not run). */
function funnelFalseRefusals(acc: Accumulator): number {
  const rows = acc.rows.get('funnel') ?? [];
  return rows.length === 0 ? 0 : round4(rows.filter((r) => r.refused).length / rows.length);
}

export async function runLocomoEval(
  samples: readonly LocomoSample[],
  options: LocomoEvalOptions,
): Promise<{ report: LocomoReport; diagnostics: LocomoDiagnostics }> {
  const o = { ...options, ks: options.ks ?? [5, 10], budgets: options.budgets ?? [500, 1000], modes: options.modes ?? EVAL_MODES };
  const acc: Accumulator = {
    rows: new Map(o.modes.map((m) => [m, []])),
    diagnostics: {
      samples: samples.length,
      unanswerableQuestions: 0,
      skippedQuestions: 0,
      malformedEvidence: [],
      unknownEvidence: [],
      floorObservations: [],
      gateRuns: {},
      bySample: {},
    },
    holdsNothing: 0,
    unanswerableBySample: new Map(),
    embedderId: 'none',
  };
  for (const sample of samples) await evalSample(sample, o, acc);
  const d = acc.diagnostics;
  d.bySample = figuresBySample(samples, acc, o);
  const report: LocomoReport = {
    embedder: acc.embedderId,
    questions: acc.rows.get(o.modes[0]!)?.length ?? 0,
    modes: Object.fromEntries(o.modes.map((m) => [m, summarize(acc.rows.get(m)!, o.ks, o.budgets)])),
    unanswerable: {
      holdsNothingRate: d.unanswerableQuestions === 0 ? 0 : round4(acc.holdsNothing / d.unanswerableQuestions),
      falseRefusalRate: funnelFalseRefusals(acc),
    },
  };
  return { report, diagnostics: d };
}

/**
 * The similarity floor of the embedder behind `indexSample`, measured on LoCoMo: the funnel runs
 * with the floor off and `calibrateFloor` reads its candidates (see floor-calibration.ts).
 */
export async function measureFloor(
  samples: readonly LocomoSample[],
  options: LocomoEvalOptions,
  calibrate: CalibrateOptions = {},
): Promise<FloorCalibrationResult & { embedder: string }> {
  const { report, diagnostics } = await runLocomoEval(samples, { ...options, modes: ['funnel'], recall: { ...options.recall, floor: -1 } });
  return { ...calibrateFloor(diagnostics.floorObservations, calibrate), embedder: report.embedder };
}
