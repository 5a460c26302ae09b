import type { NoteRecord } from '../records';
import type { NoteChange } from './changes';
import { clusterNearDuplicates, collapseClusterChanges, type SimilarPair } from './clusters';
import { classifyNote, DEFAULT_CURATOR_POLICY, type CuratorClass, type CuratorPolicy } from './curator-classes';
import { supersedeChanges } from './supersession';

/**
 * The continuous-cleaning sweep as a pure plan: it reads notes and signals and returns proposals,
 * each with the exact record changes that would carry it out. It applies nothing; the store
 * writes a proposal's changes (with history) once it is accepted, and a prune only after the
 * person confirms.
 */
export type SweepProposal =
  | { type: 'collapse-duplicates'; canonicalId: string; duplicateIds: string[]; changes: NoteChange[]; needsConfirmation: false }
  | { type: 'supersede'; newerId: string; olderId: string; changes: NoteChange[]; needsConfirmation: false }
  | {
      type: 'curate';
      noteId: string;
      class: Exclude<CuratorClass, 'keep'>;
      reasons: string[];
      changes: NoteChange[];
      needsConfirmation: boolean;
    };

export interface SweepInput {
  notes: readonly NoteRecord[];
  /** Similar pairs from the index, with the active embedder's similarity. */
  similarPairs: readonly SimilarPair[];
  threshold: number;
  /** Supersessions the person accepted in the Inbox: [newer, older] ids. */
  acceptedSupersessions: readonly (readonly [string, string])[];
  /** Ids of notes contradicted by a newer note with an open proposal. */
  contradicted: ReadonlySet<string>;
  now: number;
  policy?: CuratorPolicy;
}

function curateChanges(note: NoteRecord, cls: Exclude<CuratorClass, 'keep'>, why: string, now: number): NoteChange[] {
  if (cls === 'prune') return [{ recordId: note.id, action: 'prune', why, before: note, after: null }];
  if (cls === 'archive') {
    return [{ recordId: note.id, action: 'archive', why, before: note, after: { ...note, status: 'archived', updatedAt: now } }];
  }
  return [{ recordId: note.id, action: 'promote', why, before: note, after: { ...note, status: 'kept', keptAt: now, updatedAt: now } }];
}

export function planSweep(input: SweepInput): SweepProposal[] {
  const proposals: SweepProposal[] = [];
  const touched = new Set<string>();
  const byId = new Map(input.notes.map((n) => [n.id, n]));

  for (const [newerId, olderId] of input.acceptedSupersessions) {
    const newer = byId.get(newerId);
    const older = byId.get(olderId);
    if (!newer || !older || touched.has(newerId) || touched.has(olderId)) continue;
    const changes = supersedeChanges(newer, older, { now: input.now, why: 'Accepted supersession: the newer note replaces the older.' });
    if (!changes.ok) continue;
    proposals.push({ type: 'supersede', newerId, olderId, changes: changes.value, needsConfirmation: false });
    touched.add(newerId).add(olderId);
  }

  const remaining = input.notes.filter((n) => !touched.has(n.id));
  for (const cluster of clusterNearDuplicates(remaining, input.similarPairs, input.threshold)) {
    const changes = collapseClusterChanges(cluster, input.now);
    if (changes.length === 0) continue;
    const duplicateIds = changes.filter((c) => c.action === 'merge-duplicate').map((c) => c.recordId);
    proposals.push({ type: 'collapse-duplicates', canonicalId: cluster.canonical.id, duplicateIds, changes, needsConfirmation: false });
    for (const c of changes) touched.add(c.recordId);
  }

  for (const note of input.notes) {
    if (touched.has(note.id)) continue;
    const verdict = classifyNote(
      note,
      { now: input.now, contradicted: input.contradicted.has(note.id) },
      input.policy ?? DEFAULT_CURATOR_POLICY,
    );
    if (verdict.class === 'keep') continue;
    const why = `Curator: ${verdict.class} (${verdict.reasons.join('; ')}).`;
    proposals.push({
      type: 'curate',
      noteId: note.id,
      class: verdict.class,
      reasons: verdict.reasons,
      changes: curateChanges(note, verdict.class, why, input.now),
      needsConfirmation: verdict.class === 'prune',
    });
  }
  return proposals;
}
