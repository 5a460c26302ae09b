/**
 * What the curation screens read: the cleaning sweep's pending proposals (Notes), the checkpoints
 * and the retention report with what each table holds (Settings). Plain Dexie reads, so `liveQuery`
 * re-runs them when a sweep writes proposals, a proposal is applied or a roll-back runs; except
 * the table sizes, which are read when asked (see `readTableSizes`).
 */
import { CURATE_SWEEP_JOB, type RetentionReport, type SweepSummary, type TableSizes } from '../../core/api/curate-api';
import type { CheckpointRecord, ProposalRecord, ProposalType } from '../../core/records';
import { listCheckpoints } from '../checkpoints';
import { tableSizes } from '../retention';
import type { Vault } from '../vault';

/** The order the Notes screen groups proposals in: merges first, deletions last. */
export const PROPOSAL_ORDER: readonly ProposalType[] = ['collapse-duplicates', 'supersede', 'promote', 'archive', 'prune'];

export interface ProposalGroup {
  type: ProposalType;
  proposals: ProposalRecord[];
}

/** Pending proposals grouped by type (in PROPOSAL_ORDER; empty groups left out), oldest first in a group. */
export async function readPendingProposals(vault: Vault): Promise<ProposalGroup[]> {
  const pending = await vault.db.proposals.where('status').equals('pending').toArray();
  return PROPOSAL_ORDER.map((type) => ({
    type,
    proposals: pending.filter((p) => p.type === type).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id)),
  })).filter((group) => group.proposals.length > 0);
}

/** Checkpoints, newest first (rolled-back ones too: Settings shows they were undone). */
export function readCheckpoints(vault: Vault): Promise<CheckpointRecord[]> {
  return listCheckpoints(vault.db);
}

/** What the last retention run removed (null: it has not run in this vault yet). */
export function readRetentionReport(vault: Vault): Promise<RetentionReport | null> {
  return vault.settings.get('retention.last');
}

/**
 * The rows each table holds. Never watched: IndexedDB counts a table by walking it (Chromium: about
 * 1.2 s for a 300k-row table), and a watched count of every table re-ran on every write while a
 * heavy archive was indexed, which took most of the database's time.
 */
export function readTableSizes(vault: Vault): Promise<TableSizes> {
  return tableSizes(vault);
}

export interface SweepState {
  /** The cleaning sweep queued or running now (null: none). */
  active: { jobId: string; status: 'pending' | 'leased' } | null;
  /** The last sweep that failed for good since the last finished one (its error shown once). */
  failed: { jobId: string; message: string } | null;
  /** What the last finished sweep did. */
  last: SweepSummary | null;
}

/** Whether a sweep is queued or running, and what the last one did ("Sweep now" shows it). */
export async function readSweepState(vault: Vault): Promise<SweepState> {
  const [jobs, last] = await Promise.all([
    vault.db.jobs.where('type').equals(CURATE_SWEEP_JOB).toArray(),
    vault.settings.get('curate.lastSweep'),
  ]);
  const live = jobs.find((j) => j.status === 'pending' || j.status === 'leased');
  const dead = jobs
    .filter((j) => j.status === 'dead' && j.updatedAt > (last?.finishedAt ?? 0))
    .sort((a, b) => b.updatedAt - a.updatedAt)[0];
  return {
    active: live ? { jobId: live.id, status: live.status as 'pending' | 'leased' } : null,
    failed: dead ? { jobId: dead.id, message: dead.error?.message ?? 'The sweep stopped.' } : null,
    last,
  };
}
