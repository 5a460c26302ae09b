/**
 * Session focus (issue 12, precision for big-picture prompts): a GLOBAL prompt (conceptual,
 * exploratory: "Give me an overview of ...", "Why did I ...") is about a subject, and its package
 * should hold the sessions about it rather than every session that shares a word with it. Each
 * conversation among the kept items is judged by what its retrieved memories hold together: the share
 * of the prompt's informative vocabulary (the vault's idf, term-coverage.ts) held by the union of its
 * candidates' keyword documents. Items of conversations holding less than `ratio` of the best
 * conversation's share are dropped, with the reason. Items of no conversation (resources, notes of
 * their own), structural items and pinned items stay; nothing happens when no conversation holds the
 * relevance stage's refusal line. LOCAL and HYBRID prompts are not focused: a question that connects
 * several sessions (LoCoMo's multi-hop) lost recall when they were (recall README, "Session focus").
 */
import { jointCoverage, type TermCoverage } from './term-coverage';
import type { DroppedCandidate, ScoredCandidate } from './types';

/**
 * Chosen on `engram eval global` and `engram eval locomo` (recall README, "Session focus"): the largest
 * share of big-picture packages drawn from the prompt's chat, with the asks whose package holds that
 * chat not fewer and LoCoMo dev's funnel recall at 1,000 tokens within one question of no focus
 * (measured before the big-picture routing rules of intent-class.ts, which route one LoCoMo question
 * differently and move no LoCoMo recall figure).
 */
export const SESSION_FOCUS = 0.5;

export interface FocusTrace {
  ratio: number;
  /** The best conversation's share of the prompt. */
  best: number;
  /** Conversations kept and left out. */
  kept: number;
  left: number;
}

export function focusOnSessions(
  items: readonly ScoredCandidate[],
  judgment: TermCoverage,
  options: { ratio: number; refuseBelow: number },
): { items: ScoredCandidate[]; dropped: DroppedCandidate[]; trace: FocusTrace | null } {
  const members = new Map<string, string[]>();
  for (const item of items) {
    const id = item.record.conversationId;
    if (item.record.kind === 'structure' || !id) continue;
    members.set(id, [...(members.get(id) ?? []), item.record.id]);
  }
  const coverage = new Map([...members].map(([id, ids]) => [id, jointCoverage(judgment, ids)]));
  const best = Math.max(0, ...coverage.values());
  if (best < options.refuseBelow) return { items: [...items], dropped: [], trace: null };
  const line = options.ratio * best;
  const left = new Set([...coverage].filter(([, c]) => c < line).map(([id]) => id));
  const kept: ScoredCandidate[] = [];
  const dropped: DroppedCandidate[] = [];
  for (const item of items) {
    const id = item.record.conversationId;
    if (item.record.kind === 'structure' || item.record.pinned || !id || !left.has(id)) {
      kept.push(item);
      continue;
    }
    const share = Math.round(coverage.get(id)! * 100);
    dropped.push({
      candidate: item,
      stage: 'relevance',
      reason: `its conversation's memories hold ${share} % of the prompt, under ${Math.round(options.ratio * 100)} % of the best conversation's ${Math.round(best * 100)} %`,
    });
  }
  return { items: kept, dropped, trace: { ratio: options.ratio, best, kept: coverage.size - left.size, left: left.size } };
}
