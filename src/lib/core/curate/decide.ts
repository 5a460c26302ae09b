import { z } from 'zod';
import type { Llm } from '../api/llm';
import { isVaultError, toVaultError, VaultFailure, vaultError, type VaultError } from '../errors';
import type { NoteRecord } from '../records';
import { detectConflict, type Conflict } from './contradiction';
import { isActive } from './provenance';
import { NEAR_DUPLICATE_THRESHOLD, termSimilarity } from './similarity';

/**
 * The decision stage for one candidate against the top-5 similar existing notes (found by the
 * index): exact duplicate (content hash) or near duplicate -> propose merge; contradiction ->
 * propose supersession for review; otherwise add. Order: exact duplicate, contradiction, near
 * duplicate (a negated statement is often the most similar note of all).
 */
export interface CurationCandidate {
  text: string;
  contentHash: string;
  category: string;
}

export interface Neighbour {
  note: NoteRecord;
  /** Similarity from the active embedder. */
  similarity: number;
}

export type CurationProposal =
  | { action: 'merge'; target: NoteRecord; reason: 'exact-duplicate' | 'near-duplicate'; similarity: number }
  | {
      action: 'supersede';
      target: NoteRecord;
      conflict: Conflict | null;
      checkedBy: 'rules' | 'rules+llm' | 'llm';
      llmReason: string | null;
    }
  | { action: 'add' };

export interface DecisionOptions {
  /** Calibrated near-duplicate threshold for the embedder that produced `similarity`. */
  threshold: number;
  /** Term-overlap threshold used alongside the embedder's similarity. */
  termThreshold?: number;
  topK?: number;
}

export interface CurationDecision {
  proposal: CurationProposal;
  /** Set when the LLM check was attempted and failed: the rules alone decided. */
  llmError: VaultError | null;
}

const SLOT_CATEGORIES = new Set(['Decisions', 'Constraints']);

function topNeighbours(neighbours: readonly Neighbour[], k: number): Neighbour[] {
  return neighbours
    .filter((n) => isActive(n.note))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, k);
}

function conflictWith(candidate: CurationCandidate, note: NoteRecord): Conflict | null {
  const slotSwap = SLOT_CATEGORIES.has(candidate.category) && candidate.category === note.category;
  return detectConflict(candidate.text, note.text, { slotSwap });
}

/** The rule-only decision. */
export function decideByRules(candidate: CurationCandidate, neighbours: readonly Neighbour[], options: DecisionOptions): CurationProposal {
  const top = topNeighbours(neighbours, options.topK ?? 5);
  const exact = top.find((n) => n.note.contentHash === candidate.contentHash);
  if (exact) return { action: 'merge', target: exact.note, reason: 'exact-duplicate', similarity: exact.similarity };
  for (const n of top) {
    const conflict = conflictWith(candidate, n.note);
    if (conflict) return { action: 'supersede', target: n.note, conflict, checkedBy: 'rules', llmReason: null };
  }
  const termThreshold = options.termThreshold ?? NEAR_DUPLICATE_THRESHOLD.terms;
  const near = top.find((n) => n.similarity >= options.threshold || termSimilarity(candidate.text, n.note.text) >= termThreshold);
  if (near) return { action: 'merge', target: near.note, reason: 'near-duplicate', similarity: near.similarity };
  return { action: 'add' };
}

const verdicts = z.object({
  verdicts: z.array(z.object({ note: z.number().int(), contradicts: z.boolean(), reason: z.string() })),
});

const CHECK_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    verdicts: {
      type: 'array',
      items: {
        type: 'object',
        properties: { note: { type: 'integer' }, contradicts: { type: 'boolean' }, reason: { type: 'string' } },
        required: ['note', 'contradicts', 'reason'],
        additionalProperties: false,
      },
    },
  },
  required: ['verdicts'],
  additionalProperties: false,
};

/** One batched LLM call: does the candidate contradict each of these notes? */
export async function llmContradictions(
  llm: Llm,
  candidate: CurationCandidate,
  notes: readonly NoteRecord[],
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<Map<string, { contradicts: boolean; reason: string }>> {
  const listed = notes.map((n, i) => `${i + 1}. ${n.text}`).join('\n');
  const answer = await llm.complete(
    [
      {
        role: 'system',
        content:
          'You compare a new statement with existing notes. A note is contradicted when both cannot be true at once, or when the new statement changes a decision or value the note records. Topic overlap alone is not a contradiction. Answer with JSON only.',
      },
      { role: 'user', content: `New statement: ${candidate.text}\n\nExisting notes:\n${listed}` },
    ],
    { temperature: 0, jsonSchema: CHECK_SCHEMA, maxTokens: 400, signal: options.signal, timeoutMs: options.timeoutMs },
  );
  const parsed = verdicts.safeParse(JSON.parse(answer));
  if (!parsed.success) {
    throw new VaultFailure(vaultError('llm/invalid-output', 'The contradiction check answer does not match its schema.'));
  }
  const out = new Map<string, { contradicts: boolean; reason: string }>();
  for (const v of parsed.data.verdicts) {
    const note = notes[v.note - 1];
    if (note) out.set(note.id, { contradicts: v.contradicts, reason: v.reason });
  }
  return out;
}

/**
 * The decision with an optional LLM check: rule-flagged contradictions are confirmed or dismissed
 * by the model, and the model may flag one the rules missed. An LLM failure leaves the rules'
 * decision in place and is reported. Merges on an equal content hash never ask the model.
 */
export async function decideCandidate(
  candidate: CurationCandidate,
  neighbours: readonly Neighbour[],
  options: DecisionOptions & { llm?: Llm | null; signal?: AbortSignal; timeoutMs?: number },
): Promise<CurationDecision> {
  const byRules = decideByRules(candidate, neighbours, options);
  const top = topNeighbours(neighbours, options.topK ?? 5);
  if (!options.llm || top.length === 0 || (byRules.action === 'merge' && byRules.reason === 'exact-duplicate')) {
    return { proposal: byRules, llmError: null };
  }
  let checked: Map<string, { contradicts: boolean; reason: string }>;
  try {
    checked = await llmContradictions(
      options.llm,
      candidate,
      top.map((n) => n.note),
      options,
    );
  } catch (thrown) {
    const error = isVaultError(thrown) ? thrown : toVaultError(thrown, 'llm/invalid-output');
    if (error.code === 'llm/cancelled') throw thrown;
    return { proposal: byRules, llmError: error };
  }
  for (const n of top) {
    const verdict = checked.get(n.note.id);
    if (!verdict?.contradicts) continue;
    const conflict = conflictWith(candidate, n.note);
    return {
      proposal: { action: 'supersede', target: n.note, conflict, checkedBy: conflict ? 'rules+llm' : 'llm', llmReason: verdict.reason },
      llmError: null,
    };
  }
  if (byRules.action === 'supersede') {
    // The model read the flagged pair and found no contradiction: fall back to the duplicate / add rules.
    const rest = neighbours.filter((n) => n.note.id !== byRules.target.id);
    return { proposal: decideByRules(candidate, rest, options), llmError: null };
  }
  return { proposal: byRules, llmError: null };
}
