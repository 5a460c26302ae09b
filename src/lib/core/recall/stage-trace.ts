/**
 * What each model stage of one recall did, for the trace (the Recall screen's status lines) and
 * the evaluation's per-stage figures: asked and answered, failed, cancelled, bypassed by its open
 * breaker, or skipped (no model, switched off, the attention gate, nothing to judge), how long it
 * took, and its breaker afterwards.
 */
import { StageBreakers, type BreakerStatus, type ModelStage } from '../breaker/circuit-breaker';
import type { StageCall, StageCallOutcome, StageGuard } from '../breaker/stage-guard';

export type RecallStage = Extract<ModelStage, 'intent' | 'decompose' | 'fit-gate' | 'rerank'>;
export const RECALL_STAGES: readonly RecallStage[] = ['intent', 'decompose', 'fit-gate', 'rerank'];

export interface StageTrace {
  outcome: StageCallOutcome | 'skipped';
  ms: number;
  /** Why it failed, was bypassed or skipped; null when it answered (or had nothing to say). */
  reason: string | null;
  breaker: BreakerStatus | null;
}

export type StageTraces = Record<RecallStage, StageTrace>;

export class StageRecorder {
  private readonly traces = new Map<RecallStage, StageTrace>();

  constructor(
    private readonly breakers: StageBreakers,
    private readonly now: () => number,
  ) {}

  guard(stage: RecallStage): StageGuard {
    return {
      breaker: this.breakers.get(stage),
      now: this.now,
      record: (call: StageCall) =>
        this.traces.set(stage, { outcome: call.outcome, ms: call.ms, reason: call.reason, breaker: call.breaker }),
    };
  }

  /** Every stage; one that never called (or was bypassed) is `skipped` with `why` when given. */
  result(why: Partial<Record<RecallStage, string | null>> = {}): StageTraces {
    const out = {} as StageTraces;
    for (const stage of RECALL_STAGES) {
      out[stage] = this.traces.get(stage) ?? {
        outcome: 'skipped',
        ms: 0,
        reason: why[stage] ?? null,
        breaker: this.breakers.get(stage).status(),
      };
    }
    return out;
  }
}

/** A recall without shared breakers still traces its stages (each call has its own, fresh breaker). */
export function breakersOrFresh(breakers: StageBreakers | undefined, now: () => number): StageBreakers {
  return breakers ?? new StageBreakers({ now });
}
