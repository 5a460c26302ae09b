import type { ConfidenceTier, NoteRecord, ProposalRecord, ProposalType } from '../records';
import type { NoteChange } from './changes';
import { clusterNearDuplicates, collapseClusterChanges, type SimilarPair } from './clusters';
import type { Conflict } from './contradiction';
import { classifyNote, DEFAULT_CURATOR_POLICY, type CuratorClass, type CuratorPolicy } from './curator-classes';
import { newerOf, supersedeChanges } from './supersession';

/**
 * The continuous-cleaning sweep as a pure plan: it reads notes and signals and returns proposals,
 * each with the exact record changes that would carry it out and the reasons shown with it. It
 * applies nothing; the store writes a proposal's changes (with history, after a checkpoint) once
 * it is accepted, and a prune only after the person confirms.
 */
export type SweepProposal =
  | {
      type: 'collapse-duplicates';
      canonicalId: string;
      duplicateIds: string[];
      reasons: string[];
      changes: NoteChange[];
      needsConfirmation: false;
    }
  | { type: 'supersede'; newerId: string; olderId: string; reasons: string[]; changes: NoteChange[]; needsConfirmation: false }
  | {
      type: 'curate';
      noteId: string;
      class: Exclude<CuratorClass, 'keep'>;
      reasons: string[];
      changes: NoteChange[];
      needsConfirmation: boolean;
    };

/** Two kept notes the rules found contradicting each other (the newer is proposed to supersede). */
export interface ContradictionPair {
  a: string;
  b: string;
  conflict: Conflict;
}

export interface SweepInput {
  notes: readonly NoteRecord[];
  /** Confirmed near-duplicate pairs with their similarity. */
  similarPairs: readonly SimilarPair[];
  threshold: number;
  /** Supersessions the person accepted in the Inbox: [newer, older] ids. */
  acceptedSupersessions: readonly (readonly [string, string])[];
  /** Contradictions the sweep found between notes. */
  contradictions?: readonly ContradictionPair[];
  /** Ids of notes contradicted by a newer note with an open proposal. */
  contradicted: ReadonlySet<string>;
  /** Copies of the chunks covering a candidate's source turns (promotion.ts). */
  sourceCopies?: ReadonlyMap<string, number>;
  /** When each note was said (its conversation's date), for validity horizons. */
  saidAt?: ReadonlyMap<string, number>;
  now: number;
  policy?: CuratorPolicy;
}

function curateChanges(
  note: NoteRecord,
  cls: Exclude<CuratorClass, 'keep'>,
  why: string,
  now: number,
  tier?: ConfidenceTier,
): NoteChange[] {
  if (cls === 'prune') return [{ recordId: note.id, action: 'prune', why, before: note, after: null }];
  if (cls === 'archive') {
    return [{ recordId: note.id, action: 'archive', why, before: note, after: { ...note, status: 'archived', updatedAt: now } }];
  }
  if (tier) return [{ recordId: note.id, action: 'promote', why, before: note, after: { ...note, confidenceTier: tier, updatedAt: now } }];
  return [{ recordId: note.id, action: 'promote', why, before: note, after: { ...note, status: 'kept', keptAt: now, updatedAt: now } }];
}

function supersessions(input: SweepInput, byId: ReadonlyMap<string, NoteRecord>, touched: Set<string>): SweepProposal[] {
  const out: SweepProposal[] = [];
  const propose = (newer: NoteRecord, older: NoteRecord, reasons: string[]) => {
    if (touched.has(newer.id) || touched.has(older.id)) return;
    const changes = supersedeChanges(newer, older, { now: input.now, why: reasons.join(' ') });
    if (!changes.ok) return;
    out.push({ type: 'supersede', newerId: newer.id, olderId: older.id, reasons, changes: changes.value, needsConfirmation: false });
    touched.add(newer.id).add(older.id);
  };
  for (const [newerId, olderId] of input.acceptedSupersessions) {
    const newer = byId.get(newerId);
    const older = byId.get(olderId);
    if (newer && older) propose(newer, older, ['Accepted supersession: the newer note replaces the older.']);
  }
  for (const pair of input.contradictions ?? []) {
    const a = byId.get(pair.a);
    const b = byId.get(pair.b);
    if (!a || !b || a.status !== 'kept' || b.status !== 'kept') continue;
    const [newer, older] = newerOf(a, b);
    propose(newer, older, [`The two notes contradict each other (${pair.conflict.explanation}); the newer one would replace the older.`]);
  }
  return out;
}

export function planSweep(input: SweepInput): SweepProposal[] {
  const touched = new Set<string>();
  const byId = new Map(input.notes.map((n) => [n.id, n]));
  const proposals = supersessions(input, byId, touched);

  const remaining = input.notes.filter((n) => !touched.has(n.id));
  for (const cluster of clusterNearDuplicates(remaining, input.similarPairs, input.threshold)) {
    const changes = collapseClusterChanges(cluster, input.now);
    if (changes.length === 0) continue;
    const duplicateIds = changes.filter((c) => c.action === 'merge-duplicate').map((c) => c.recordId);
    const reasons = [`${duplicateIds.length + 1} notes say the same thing; the highest-provenance copy stays and gathers their sources.`];
    proposals.push({
      type: 'collapse-duplicates',
      canonicalId: cluster.canonical.id,
      duplicateIds,
      reasons,
      changes,
      needsConfirmation: false,
    });
    for (const c of changes) touched.add(c.recordId);
  }

  for (const note of input.notes) {
    if (touched.has(note.id)) continue;
    const verdict = classifyNote(
      note,
      {
        now: input.now,
        contradicted: input.contradicted.has(note.id),
        sourceCopies: input.sourceCopies?.get(note.id) ?? 0,
        ...(input.saidAt?.has(note.id) ? { saidAt: input.saidAt.get(note.id)! } : {}),
      },
      input.policy ?? DEFAULT_CURATOR_POLICY,
    );
    if (verdict.class === 'keep') continue;
    const why = `Curator: ${verdict.class} (${verdict.reasons.join('; ')}).`;
    proposals.push({
      type: 'curate',
      noteId: note.id,
      class: verdict.class,
      reasons: verdict.reasons,
      changes: curateChanges(note, verdict.class, why, input.now, verdict.tier),
      needsConfirmation: verdict.class === 'prune',
    });
  }
  return proposals;
}

export function proposalType(proposal: SweepProposal): ProposalType {
  return proposal.type === 'curate' ? proposal.class : proposal.type;
}

/** The notes a proposal is about, the one it is about first. */
export function proposalNoteIds(proposal: SweepProposal): string[] {
  if (proposal.type === 'collapse-duplicates') return [proposal.canonicalId, ...proposal.duplicateIds];
  if (proposal.type === 'supersede') return [proposal.newerId, proposal.olderId];
  return [proposal.noteId];
}

/** Identity across sweeps: the same kind of change to the same notes (a dismissed one is not made again). */
export function proposalKey(type: ProposalType, noteIds: readonly string[]): string {
  return `${type}:${[...noteIds].sort().join(',')}`;
}

/** The stored form of a sweep's proposals (ids from the sweep's id and the position, so a retried sweep rewrites, never duplicates). */
export function toProposalRecords(proposals: readonly SweepProposal[], sweepId: string, now: number): ProposalRecord[] {
  return proposals.map((proposal, i) => {
    const type = proposalType(proposal);
    const noteIds = proposalNoteIds(proposal);
    return {
      id: `${sweepId}:${i}`,
      sweepId,
      createdAt: now,
      status: 'pending',
      type,
      noteIds,
      reasons: proposal.reasons,
      needsConfirmation: proposal.needsConfirmation,
      changes: proposal.changes,
      key: proposalKey(type, noteIds),
      decidedAt: null,
      historyIds: [],
      checkpointId: null,
    };
  });
}
