import type { NoteRecord, NoteStatus, Tier } from '../records';

/** Provenance weights (DESIGN, read path step 3). */
export const TIER_WEIGHT: Record<Tier, number> = { engram: 1, resource: 0.8, chat: 0.6, web: 0.1 };

/**
 * A note's provenance: its tier weight, but an engram counts fully only once a person kept it
 * ("Keeping one makes it an engram (provenance 1.0)"); an unreviewed candidate counts as the chat
 * text it came from.
 */
export function provenanceOf(note: Pick<NoteRecord, 'tier' | 'status'>): number {
  if (note.tier === 'engram' && note.status !== 'kept') return TIER_WEIGHT.chat;
  return TIER_WEIGHT[note.tier];
}

/** Statuses that default retrieval reads; superseded, archived and discarded notes stay as records only. */
export const DEFAULT_RETRIEVAL_STATUSES: readonly NoteStatus[] = ['kept', 'provisional'];

export function inDefaultRetrieval(note: Pick<NoteRecord, 'status'>): boolean {
  return DEFAULT_RETRIEVAL_STATUSES.includes(note.status);
}

/** Notes a new candidate is compared with: the ones still in play. */
export function isActive(note: Pick<NoteRecord, 'status'>): boolean {
  return note.status === 'kept' || note.status === 'provisional';
}
