/**
 * What the model stages did over a LoCoMo run (`eval locomo --llm-endpoint ... [--reranker ...]`):
 * per stage how often its model was called, failed, was skipped or bypassed, how often its breaker
 * opened and how long a call took; how the fit-gate's keep/drop agreed with the evidence.
 * Package precision and tokens, "holds nothing" on category 5 and false refusals on categories 1-4
 * are the report's own (`modes.funnel.packagePrecision`, `unanswerable`, eval-locomo.ts): one
 * definition for every mode, with or without models. Fed with every funnel recall of the run
 * (`onFunnel`), in any order.
 */
import { holdsEvidence, percentile, round4, type RankedEvidenceItem } from './eval-metrics';
import type { RecallStage, StageTrace } from './stage-trace';
import type { Candidate, RecallResult } from './types';

export interface FunnelObservation {
  result: RecallResult;
  category: number;
  /** Resolvable evidence turns; empty for category 5. */
  evidence: readonly string[];
  toItem: (candidate: Candidate) => RankedEvidenceItem;
}

export interface StageFigures {
  /** Calls made to the model (answered, failed or cancelled). */
  calls: number;
  failures: number;
  /** Recalls where the stage did not call its model (no model, attention gate, nothing to judge, breaker open). */
  skipped: number;
  /** How often the stage's circuit breaker opened during the run. */
  breakerOpened: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

export interface GateAgreement {
  /** Candidates the gate judged (answerable questions). */
  judged: number;
  keptWithEvidence: number;
  keptWithoutEvidence: number;
  droppedWithEvidence: number;
  droppedWithoutEvidence: number;
  /** (kept with evidence + dropped without) / judged; null when the gate never judged. */
  agreement: number | null;
  /** Share of the judged evidence-holding candidates the gate kept. */
  evidenceKept: number | null;
  /** Share of the judged candidates without evidence the gate dropped. */
  noiseDropped: number | null;
}

export type ReportedStage = 'gate' | 'decompose' | 'intent' | 'rerank';

export interface ModelStageReport {
  llm: string | null;
  reranker: string | null;
  stages: Record<ReportedStage, StageFigures>;
  gate: GateAgreement;
}

const REPORTED: Record<ReportedStage, RecallStage> = { gate: 'fit-gate', decompose: 'decompose', intent: 'intent', rerank: 'rerank' };

const ratio = (a: number, b: number) => (b === 0 ? null : round4(a / b));

export class ModelStageAccumulator {
  private readonly traces = new Map<ReportedStage, StageTrace[]>();
  private readonly gate = { keptWith: 0, keptWithout: 0, droppedWith: 0, droppedWithout: 0 };

  constructor(private readonly ids: { llm: string | null; reranker: string | null } = { llm: null, reranker: null }) {}

  observe(o: FunnelObservation): void {
    for (const [name, stage] of Object.entries(REPORTED) as [ReportedStage, RecallStage][]) {
      const trace = o.result.stages?.[stage];
      if (trace) this.traces.set(name, [...(this.traces.get(name) ?? []), trace]);
    }
    if (o.category === 5) return;
    this.observeGate(o);
  }

  /** The gate's verdicts: candidates it kept (they carry its reason, wherever they ended) and those it dropped. */
  private observeGate(o: FunnelObservation): void {
    if (!o.result.gate.ran) return;
    const kept = [
      ...o.result.items,
      ...o.result.dropped.filter((d) => d.stage === 'dedup' || d.stage === 'token-cap').map((d) => d.candidate),
    ];
    for (const c of kept) {
      if (c.gateReason === null || c.gateReason.startsWith('no verdict')) continue;
      if (holdsEvidence(o.evidence, o.toItem(c))) this.gate.keptWith += 1;
      else this.gate.keptWithout += 1;
    }
    for (const d of o.result.dropped) {
      if (d.stage !== 'fit-gate') continue;
      if (holdsEvidence(o.evidence, o.toItem(d.candidate))) this.gate.droppedWith += 1;
      else this.gate.droppedWithout += 1;
    }
  }

  private figures(stage: ReportedStage): StageFigures {
    const traces = this.traces.get(stage) ?? [];
    const called = traces.filter((t) => t.outcome === 'ok' || t.outcome === 'failed' || t.outcome === 'cancelled');
    const ms = called.map((t) => t.ms);
    return {
      calls: called.length,
      failures: traces.filter((t) => t.outcome === 'failed').length,
      skipped: traces.filter((t) => t.outcome === 'skipped' || t.outcome === 'bypassed').length,
      breakerOpened: Math.max(0, ...traces.map((t) => t.breaker?.timesOpened ?? 0)),
      p50Ms: ms.length ? round4(percentile(ms, 50)) : null,
      p95Ms: ms.length ? round4(percentile(ms, 95)) : null,
    };
  }

  report(): ModelStageReport {
    const g = this.gate;
    const judged = g.keptWith + g.keptWithout + g.droppedWith + g.droppedWithout;
    return {
      llm: this.ids.llm,
      reranker: this.ids.reranker,
      stages: {
        gate: this.figures('gate'),
        decompose: this.figures('decompose'),
        intent: this.figures('intent'),
        rerank: this.figures('rerank'),
      },
      gate: {
        judged,
        keptWithEvidence: g.keptWith,
        keptWithoutEvidence: g.keptWithout,
        droppedWithEvidence: g.droppedWith,
        droppedWithoutEvidence: g.droppedWithout,
        agreement: ratio(g.keptWith + g.droppedWithout, judged),
        evidenceKept: ratio(g.keptWith, g.keptWith + g.droppedWith),
        noiseDropped: ratio(g.droppedWithout, g.keptWithout + g.droppedWithout),
      },
    };
  }
}
