import type { CurationDecision, CurationProposal } from '../curate/decide';
import { qualityFlags } from '../curate/quality-gate';
import type { CandidateReview, NoteRecord, ReviewProposal } from '../records';
import type { ExtractorName } from './driver';
import type { CandidateUnit, Category } from './units';
import { EXTRACTOR_VERSION } from './version';

/**
 * A validated extraction unit as the vault stores it: a provisional engram candidate, with the
 * flags the Inbox shows (quality gate, decision stage, validator repairs) and the review data
 * behind them. A person keeping it makes it an engram; until then it counts as the chat it came from.
 */
export interface ExtractedCandidateInput {
  id: string;
  unit: CandidateUnit;
  contentHash: string;
  conversationId: string;
  extractor: ExtractorName;
  llmId: string | null;
  decision: CurationDecision;
  now: number;
}

/**
 * A text proposed from outside a chat (an agent's `remember`, core/agent/remembered-note.ts): no
 * source turns, no extractor review; its own flags (write-time safety, origin) after the quality gate's.
 */
export interface ProposedCandidateInput {
  id: string;
  text: string;
  category: Category;
  contentHash: string;
  flags: readonly string[];
  now: number;
}

/**
 * One claim of a candidate the person split (core/curate/keep-gate.ts): the original's provenance
 * (source turns, conversation, confidence, date, tier) with its own text, flags and review.
 */
export interface PieceCandidateInput {
  id: string;
  text: string;
  contentHash: string;
  of: NoteRecord;
  flags: string[];
  review: CandidateReview | null;
  now: number;
}

export type CandidateNoteInput = ExtractedCandidateInput | ProposedCandidateInput | PieceCandidateInput;

/** The proposal as data the Inbox can show without the target note at hand. */
export function reviewProposal(proposal: CurationProposal): ReviewProposal {
  if (proposal.action === 'merge') {
    return {
      action: 'merge',
      targetId: proposal.target.id,
      targetText: proposal.target.text,
      reason: proposal.reason,
      similarity: proposal.similarity,
    };
  }
  if (proposal.action === 'supersede') {
    return {
      action: 'supersede',
      targetId: proposal.target.id,
      targetText: proposal.target.text,
      checkedBy: proposal.checkedBy,
      reason: proposal.llmReason ?? proposal.conflict?.explanation ?? null,
    };
  }
  return { action: 'add' };
}

/** Validator repairs as flags (`repaired:<rule>`), after the quality-gate flags. */
export function candidateFlags(text: string, proposal: CurationProposal | null, repairs: readonly { rule: string }[]): string[] {
  return [...new Set([...qualityFlags(text, proposal), ...repairs.map((r) => `repaired:${r.rule}`)])];
}

/** The one shape of a provisional candidate, whoever proposed it. */
function provisional(
  input: { id: string; text: string; category: NoteRecord['category']; contentHash: string; now: number },
  from: {
    confidence: number;
    sourceMessageIds: string[];
    conversationId: string | null;
    flags: string[];
    tier?: NoteRecord['tier'];
    createdAt?: number;
  },
): NoteRecord {
  return {
    id: input.id,
    hlc: '',
    text: input.text,
    category: input.category,
    status: 'provisional',
    tier: from.tier ?? 'engram',
    confidence: from.confidence,
    sourceMessageIds: from.sourceMessageIds,
    conversationId: from.conversationId,
    createdAt: from.createdAt ?? input.now,
    updatedAt: input.now,
    keptAt: null,
    supersedes: null,
    supersededBy: null,
    accessCount: 0,
    lastAccessedAt: null,
    pinned: false,
    contentHash: input.contentHash,
    flags: from.flags,
  };
}

export function candidateNote(input: CandidateNoteInput): NoteRecord {
  if ('of' in input) {
    const { of } = input;
    const note = provisional(
      { ...input, category: of.category },
      {
        confidence: of.confidence,
        sourceMessageIds: [...of.sourceMessageIds],
        conversationId: of.conversationId,
        flags: input.flags,
        tier: of.tier,
        createdAt: of.createdAt,
      },
    );
    return input.review ? { ...note, review: input.review } : note;
  }
  if (!('unit' in input)) {
    return provisional(input, {
      confidence: 0.5,
      sourceMessageIds: [],
      conversationId: null,
      flags: [...new Set([...qualityFlags(input.text), ...input.flags])],
    });
  }
  const { unit, decision } = input;
  const review: CandidateReview = {
    extractor: input.extractor,
    extractorVersion: EXTRACTOR_VERSION,
    llmId: input.llmId,
    kind: unit.kind,
    repairs: unit.repairs.map((r) => ({ rule: r.rule, message: r.message })),
    proposal: reviewProposal(decision.proposal),
    decisionNote: decision.llmError ? `The model's contradiction check failed (${decision.llmError.message}); the rules decided.` : null,
  };
  const note = provisional(
    { ...input, text: unit.text, category: unit.category },
    {
      confidence: input.extractor === 'llm' ? 0.7 : 0.5,
      sourceMessageIds: [...unit.sourceMessageIds],
      conversationId: input.conversationId,
      flags: [...new Set([...candidateFlags(unit.text, decision.proposal, unit.repairs), ...(unit.flags ?? [])])],
    },
  );
  return { ...note, review };
}

/**
 * The kept version of a candidate: an engram (provenance 1.0 once kept). An edited text gets its
 * own hash and fresh quality flags; the decision-stage flags stay (the person saw them).
 */
export function keptNote(note: NoteRecord, options: { now: number; text?: string; contentHash?: string }): NoteRecord {
  const edited = options.text !== undefined && options.text !== note.text;
  const text = edited ? options.text! : note.text;
  const decisionFlags = note.flags.filter((f) => f === 'duplicate' || f === 'contradicts');
  const flags = edited ? [...new Set([...qualityFlags(text), ...decisionFlags, 'edited'])] : note.flags;
  return {
    ...note,
    text,
    contentHash: edited && options.contentHash ? options.contentHash : note.contentHash,
    flags,
    status: 'kept',
    tier: 'engram',
    confidence: 1,
    keptAt: options.now,
    updatedAt: options.now,
  };
}

export function discardedNote(note: NoteRecord, now: number): NoteRecord {
  return { ...note, status: 'discarded', updatedAt: now };
}
