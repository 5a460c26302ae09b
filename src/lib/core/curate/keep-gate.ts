import { candidateNote } from '../extract/candidate-note';
import { splitClaims } from '../extract/unit-text';
import { EXTRACTOR_VERSION } from '../extract/version';
import type { NoteRecord } from '../records';
import { hashBasis } from '../text/normalize';
import type { NoteChange } from './changes';
import { detectConflict } from './contradiction';
import { qualityFlags, type QualityFlag } from './quality-gate';

/**
 * The quality gate decides, not only flags (issue 17, item 5): a candidate that states several
 * claims, is too long, or contradicts a kept note cannot be kept as it is. The person splits it
 * into its claims (the splitter the flag uses) or edits it; a contradiction can also be kept on
 * purpose as replacing the older note (the sweep then proposes the supersession, as before).
 * 'hedged' and 'duplicate' stay advisory: a hedge can be the honest content ("maybe Lisbon in
 * May"), and a duplicate is collapsed by the sweep's merge proposal, which the person reviews.
 */
export const BLOCKING_FLAGS: readonly QualityFlag[] = ['several-claims', 'too-long', 'contradicts'];

export interface KeepIntent {
  /** The edited text, when the person edited the candidate. */
  text?: string;
  /** The person keeps a contradicting candidate knowing it replaces the older note. */
  replaces?: boolean;
}

type Gated = Pick<NoteRecord, 'text' | 'flags' | 'review'>;

/**
 * Whether the keep edits the text: only when the dedup hash basis differs (core/text/normalize),
 * so a full stop, a capital or spacing does not count as an edit (it would lift a model-found
 * contradiction without changing what the note says).
 */
export function isRealEdit(note: Pick<NoteRecord, 'text'>, intent: KeepIntent): boolean {
  return intent.text !== undefined && hashBasis(intent.text) !== hashBasis(note.text);
}

/**
 * The blocking flags that stop this keep. Unedited: the flags the Inbox shows (stored at
 * extraction). Edited (isRealEdit): the text flags are read again from the new text, and a
 * contradiction holds while the rules still find the new text in conflict with the older note (an
 * LLM-found conflict is lifted by a real edit: the rules cannot re-check it).
 */
export function keepBlocks(note: Gated, intent: KeepIntent = {}): QualityFlag[] {
  const edited = isRealEdit(note, intent);
  const text = edited ? intent.text!.trim() : note.text;
  const out = new Set<QualityFlag>();
  const textFlags = edited ? qualityFlags(text) : note.flags;
  for (const flag of ['several-claims', 'too-long'] as const) if (textFlags.includes(flag)) out.add(flag);
  if (note.flags.includes('contradicts') && !intent.replaces) {
    const proposal = note.review?.proposal;
    const target = proposal?.action === 'supersede' ? proposal.targetText : null;
    if (!edited || (target !== null && detectConflict(text, target) !== null)) out.add('contradicts');
  }
  return BLOCKING_FLAGS.filter((f) => out.has(f));
}

/**
 * The kept record of a keep the gate let through. A contradiction the person edited away (a real
 * edit, not "keep, replacing the older") is no longer one: the record loses the flag and its
 * supersede proposal, which the sweep would otherwise read as an accepted supersession and
 * propose archiving the older note (sweep-input.ts, acceptedSupersessions).
 */
export function settledKeep(note: Gated, intent: KeepIntent, kept: NoteRecord): NoteRecord {
  const lifted =
    note.flags.includes('contradicts') && !intent.replaces && isRealEdit(note, intent) && !keepBlocks(note, intent).includes('contradicts');
  if (!lifted) return kept;
  const flags = kept.flags.filter((f) => f !== 'contradicts');
  return kept.review ? { ...kept, flags, review: { ...kept.review, proposal: { action: 'add' } } } : { ...kept, flags };
}

export function isKeepBlocked(note: Gated, intent: KeepIntent = {}): boolean {
  return keepBlocks(note, intent).length > 0;
}

/** The claims a candidate splits into (at least two, or it cannot be split). */
export function claimPieces(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const piece of splitClaims(text).map((p) => p.trim())) {
    if (piece.length > 0 && !seen.has(piece)) out.push(piece);
    seen.add(piece);
  }
  return out;
}

export interface SplitPiece {
  id: string;
  text: string;
  contentHash: string;
}

/**
 * Splitting a candidate: one new candidate per claim, each with the original's provenance (source
 * messages, conversation, category, extractor), and the original retired (discarded). Each piece's
 * flags are its own; a piece keeps the original's contradiction only while the rules still see the
 * conflict. One change per record, so one history entry each and undo restores the original.
 */
export function splitChanges(note: NoteRecord, pieces: readonly SplitPiece[], now: number): NoteChange[] {
  const proposal = note.review?.proposal;
  const carried = note.flags.filter((f) => !(BLOCKING_FLAGS as readonly string[]).includes(f) && f !== 'hedged' && f !== 'duplicate');
  const inherited = carried.filter((f) => !f.startsWith('repaired:') && f !== 'edited');
  const created: NoteChange[] = pieces.map((piece) => {
    const stillConflicts = proposal?.action === 'supersede' && detectConflict(piece.text, proposal.targetText) !== null;
    const flags = [...new Set([...qualityFlags(piece.text), ...(stillConflicts ? ['contradicts'] : []), ...inherited])];
    const after = candidateNote({
      id: piece.id,
      text: piece.text,
      contentHash: piece.contentHash,
      of: note,
      flags,
      review: note.review
        ? {
            ...note.review,
            extractorVersion: EXTRACTOR_VERSION,
            repairs: [],
            proposal: stillConflicts && proposal ? proposal : { action: 'add' as const },
          }
        : null,
      now,
    });
    return { recordId: piece.id, action: 'split', why: `Split from a candidate with several claims (${note.id}).`, before: null, after };
  });
  const retired: NoteChange = {
    recordId: note.id,
    action: 'split',
    why: `Split into ${pieces.length} candidates, one claim each.`,
    before: note,
    after: { ...note, status: 'discarded', updatedAt: now },
  };
  return [...created, retired];
}
