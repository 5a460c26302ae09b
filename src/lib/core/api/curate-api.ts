/**
 * The background jobs that keep the vault (services/curation, run by the pipeline worker):
 * the cleaning sweep (`curate.sweep`) and retention (`vault.retention`). Their specs, what they
 * report, and what the screens ask the vault worker to do with a sweep's proposals and checkpoints.
 */
import type { ProposalType } from '../records';
import type { ActionOutcome } from './vault-api';
import type { JobSpec } from './jobs';

export const CURATE_SWEEP_JOB = 'curate.sweep';
export const RETENTION_JOB = 'vault.retention';

export interface SweepJobPayload {
  reason: 'scheduled' | 'on-demand';
  /** Set at the first run: a retried sweep writes under the same id. */
  sweepId?: string;
}

/** After everything else (index 10-50, extraction 60): the sweep reads what they produced. One at a time. */
export function curateSweepJob(reason: SweepJobPayload['reason']): JobSpec {
  const payload: SweepJobPayload = { reason };
  return { type: CURATE_SWEEP_JOB, payload, priority: 200, maxAttempts: 3, dedupeKey: CURATE_SWEEP_JOB };
}

export function retentionJob(): JobSpec {
  return { type: RETENTION_JOB, payload: {}, priority: 210, maxAttempts: 3, dedupeKey: RETENTION_JOB };
}

/** What the last sweep did (setting `curate.lastSweep`; the Notes screen shows it). */
export interface SweepSummary {
  sweepId: string;
  reason: SweepJobPayload['reason'];
  startedAt: number;
  finishedAt: number;
  /** Notes read (atomic notes of every status) and compared (kept and in review). */
  notes: number;
  compared: number;
  /** LSH candidate pairs, and those confirmed as duplicates or contradictions. */
  candidatePairs: number;
  duplicatePairs: number;
  contradictions: number;
  proposals: Partial<Record<ProposalType, number>>;
  /** Proposals not made again because the person dismissed them before. */
  skippedDismissed: number;
  threadMaps: number;
}

/** What one retention run removed (setting `retention.last`; Settings shows it). */
export interface RetentionReport {
  at: number;
  removed: {
    jobs: number;
    tombstones: number;
    history: number;
    checkpoints: number;
    proposals: number;
  };
  /** Why tombstones could go: merged by every known device, or older than 90 days once exported. */
  tombstoneRules: { mergedEverywhere: number; oldAndExported: number };
  knownDevices: number;
}

/** Rows per table, as Settings lists them. */
export type TableSizes = Record<string, number>;

export interface ProposalOutcome extends ActionOutcome {
  /** The checkpoint the changes were logged in (Settings can roll back to it). */
  checkpointId: string | null;
}

export interface BulkOutcome {
  applied: number;
  /**
   * Proposals whose notes changed since the sweep, or that would keep a candidate the quality gate
   * blocks (left pending: the next sweep renews or drops them).
   */
  conflicts: number;
  checkpointId: string | null;
}

/** The vault worker's calls for the cleaning sweep's proposals, pins, splits and checkpoints. */
export interface CurationApi {
  applyProposal(id: string, confirmed: boolean): Promise<ProposalOutcome>;
  /** Applies every pending proposal of `type` from the latest sweep (not deletions: those one by one). */
  applyAllProposals(type: ProposalType): Promise<BulkOutcome>;
  dismissProposal(id: string): Promise<void>;
  setPinned(noteId: string, pinned: boolean): Promise<ActionOutcome>;
  /** Records that the person copied a package holding these items (the promotion signal). */
  recordCopied(items: { id: string; kind: 'note' | 'chunk' }[]): Promise<number>;
  rollbackTo(checkpointId: string): Promise<{ rows: number; undone: number; rollbackCheckpointId: string }>;
}
