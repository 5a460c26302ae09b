/**
 * The LoCoMo evaluation core (pure: the caller reads the file and supplies the index builder and a
 * clock). For each sample a fresh index holds one record per turn; every question of categories 1-4
 * runs through each mode and is scored by evidence recall at k items and at a token budget; category
 * 5 (unanswerable) runs through the funnel and counts how often it reaches "holds nothing".
 */
import type { Llm } from '../api/llm';
import { hashBasis } from '../text/normalize';
import { mean, percentile, recallAtBudget, recallAtK, round4, type RankedEvidenceItem } from './eval-metrics';
import { calibrateFloor, type CalibrateOptions, type FloorCalibrationResult, type FloorObservation } from './floor-calibration';
import { normalizeEvidenceIds, sampleToConversations, turnText, type LocomoSample } from './locomo-data';
import type { CandidateRecord } from './ports';
import { recall } from './recall';
import { retrieve, type RetrieveDeps, type SearcherWeights } from './retrieve';
import { countTokens as defaultCounter, type TokenCounter } from './tokens';
import type { Candidate } from './types';

export const EVAL_MODES = ['bm25', 'vector', 'hybrid', 'funnel'] as const;
export type EvalMode = (typeof EVAL_MODES)[number];

export interface ModeReport {
  recallAtK: Record<string, number>;
  recallAtBudget: Record<string, number>;
  byCategory: Record<string, { questions: number; recallAtK: Record<string, number>; recallAtBudget: Record<string, number> }>;
  latencyMs: { p50: number; p95: number };
}

/** The report shape of the issue, exactly. */
export interface LocomoReport {
  embedder: string;
  questions: number;
  modes: Partial<Record<EvalMode, ModeReport>>;
  unanswerable: { holdsNothingRate: number };
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
}

export interface LocomoEvalOptions {
  /** A fresh index over one sample's records (the test harness now, the real index later). */
  buildIndex(records: readonly CandidateRecord[]): Promise<RetrieveDeps>;
  clock: () => number;
  ks?: readonly number[];
  budgets?: readonly number[];
  modes?: readonly EvalMode[];
  llm?: Llm | null;
  floor?: number | null;
  width?: number;
  /** Items ranked by the non-funnel modes (deep enough to fill the largest budget). */
  depth?: number;
  weights?: SearcherWeights;
  countTokens?: TokenCounter;
}

const DAY_MS = 86_400_000;

export function sampleRecords(sample: LocomoSample, count: TokenCounter): CandidateRecord[] {
  return sampleToConversations(sample).flatMap((conv) =>
    conv.messages.map((m): CandidateRecord => {
      const text = turnText(m);
      return {
        id: m.id,
        kind: 'chunk',
        text,
        tier: 'chat',
        createdAt: m.createdAt ?? 0,
        accessCount: 0,
        lastAccessedAt: null,
        conversationId: conv.id,
        sourceTitle: conv.title,
        date: m.createdAt,
        messageIds: [m.id],
        contentHash: hashBasis(text),
        headingPath: [],
        tokenCount: count(text),
        pinned: false,
      };
    }),
  );
}

interface QuestionRun {
  ranked: Candidate[];
  considered: Candidate[];
  holdsNothing: boolean;
  gate: string;
}

async function runMode(mode: EvalMode, question: string, deps: RetrieveDeps, now: number, o: LocomoEvalOptions): Promise<QuestionRun> {
  const depth = o.depth ?? 60;
  if (mode === 'bm25' || mode === 'vector') {
    const r = await retrieve([{ kind: 'authority', text: question }], deps, { lists: mode, perListK: depth, limit: depth });
    return { ranked: r.candidates, considered: r.candidates, holdsNothing: false, gate: 'none' };
  }
  const funnel = mode === 'funnel';
  const result = await recall(
    { prompt: question },
    { ...deps, llm: o.llm ?? null, now, clock: o.clock },
    {
      funnel,
      perListK: depth,
      ...(funnel ? {} : { limit: depth }),
      ...(o.width ? { width: o.width } : {}),
      ...(o.weights ? { weights: o.weights } : {}),
      floor: o.floor ?? null,
    },
  );
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  const r = result.value;
  const considered = [...r.items, ...r.dropped.filter((d) => d.stage !== 'width').map((d) => d.candidate)];
  return { ranked: r.items, considered, holdsNothing: r.holdsNothing !== null, gate: r.gate.ran ? 'ran' : r.gate.reason };
}

interface Row {
  category: number;
  atK: Record<string, number>;
  atBudget: Record<string, number>;
  ms: number;
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
  return { ...agg(rows), byCategory, latencyMs: { p50: round4(percentile(ms, 50)), p95: round4(percentile(ms, 95)) } };
}

interface Accumulator {
  rows: Map<EvalMode, Row[]>;
  diagnostics: LocomoDiagnostics;
  holdsNothing: number;
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

async function evalSample(
  sample: LocomoSample,
  o: Required<Pick<LocomoEvalOptions, 'ks' | 'budgets' | 'modes'>> & LocomoEvalOptions,
  acc: Accumulator,
): Promise<void> {
  const records = sampleRecords(sample, o.countTokens ?? defaultCounter);
  const deps = await o.buildIndex(records);
  acc.embedderId = deps.embedder.id;
  const diaOf = new Map(records.map((r) => [r.id, r.id.slice(sample.sample_id.length + 1)]));
  const known = new Set(diaOf.values());
  const now = Math.max(0, ...records.map((r) => r.createdAt)) + DAY_MS;
  const toItem = (c: Candidate): RankedEvidenceItem => ({
    diaIds: c.record.messageIds.map((id) => diaOf.get(id) ?? id),
    tokens: c.record.tokenCount,
  });
  const d = acc.diagnostics;
  for (const qa of sample.qa) {
    if (qa.category === 5) {
      d.unanswerableQuestions += 1;
      if ((await runMode('funnel', qa.question, deps, now, o)).holdsNothing) acc.holdsNothing += 1;
      continue;
    }
    const evidence = questionEvidence(qa.evidence, sample.sample_id, known, d);
    if (evidence.length === 0) {
      d.skippedQuestions += 1;
      continue;
    }
    for (const mode of o.modes) {
      const started = o.clock();
      const run = await runMode(mode, qa.question, deps, now, o);
      const ms = o.clock() - started;
      const items = run.ranked.map(toItem);
      acc.rows.get(mode)!.push({
        category: qa.category,
        atK: Object.fromEntries(o.ks.map((k) => [String(k), recallAtK(evidence, items, k)])),
        atBudget: Object.fromEntries(o.budgets.map((b) => [String(b), recallAtBudget(evidence, items, b)])),
        ms,
      });
      if (mode !== 'funnel') continue;
      d.gateRuns[run.gate] = (d.gateRuns[run.gate] ?? 0) + 1;
      for (const c of run.considered) {
        if (c.signals.vectorSimilarity === null) continue;
        d.floorObservations.push({
          similarity: c.signals.vectorSimilarity,
          evidence: toItem(c).diaIds.some((id) => evidence.includes(id)),
        });
      }
    }
  }
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
    },
    holdsNothing: 0,
    embedderId: 'none',
  };
  for (const sample of samples) await evalSample(sample, o, acc);
  const d = acc.diagnostics;
  const report: LocomoReport = {
    embedder: acc.embedderId,
    questions: acc.rows.get(o.modes[0]!)?.length ?? 0,
    modes: Object.fromEntries(o.modes.map((m) => [m, summarize(acc.rows.get(m)!, o.ks, o.budgets)])),
    unanswerable: { holdsNothingRate: d.unanswerableQuestions === 0 ? 0 : round4(acc.holdsNothing / d.unanswerableQuestions) },
  };
  return { report, diagnostics: d };
}

/**
 * The similarity floor of the embedder behind `buildIndex`, measured on LoCoMo: the funnel runs
 * with the floor off and `calibrateFloor` reads its candidates (see floor-calibration.ts).
 */
export async function measureFloor(
  samples: readonly LocomoSample[],
  options: LocomoEvalOptions,
  calibrate: CalibrateOptions = {},
): Promise<FloorCalibrationResult & { embedder: string }> {
  const { report, diagnostics } = await runLocomoEval(samples, { ...options, modes: ['funnel'], floor: -1 });
  return { ...calibrateFloor(diagnostics.floorObservations, calibrate), embedder: report.embedder };
}
