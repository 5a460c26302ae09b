/** Builders for recall tests: candidate records, scored candidates, a sanitizer double. */
import type { CandidateRecord } from '../../src/lib/core/recall/ports';
import type { Candidate, RetrievalSignals, ScoredCandidate } from '../../src/lib/core/recall/types';
import { PROVENANCE_WEIGHTS } from '../../src/lib/core/recall/scoring';

export const NOW = Date.UTC(2025, 0, 1);
export const DAY = 86_400_000;

export function candidateRecord(over: Partial<CandidateRecord> & { id: string }): CandidateRecord {
  const text = over.text ?? `memory ${over.id}`;
  return {
    kind: 'chunk',
    text,
    tier: 'chat',
    createdAt: NOW - DAY,
    accessCount: 0,
    lastAccessedAt: null,
    conversationId: 'conv-1',
    sourceTitle: 'A conversation',
    date: NOW - DAY,
    messageIds: [`msg-${over.id}`],
    contentHash: `hash-${over.id}`,
    headingPath: [],
    tokenCount: 10,
    pinned: false,
    ...over,
  };
}

export function signals(over: Partial<RetrievalSignals> = {}): RetrievalSignals {
  return { bm25Rank: 1, bm25Score: 3, vectorRank: 1, vectorSimilarity: 0.6, rrf: 1 / 61, variants: ['concept'], ...over };
}

export function candidate(over: Partial<CandidateRecord> & { id: string }, sig: Partial<RetrievalSignals> = {}): Candidate {
  return { record: candidateRecord(over), signals: signals(sig) };
}

/** A scored candidate whose score is `relevance` x the tier's weight (recency 1). */
export function scored(
  over: Partial<CandidateRecord> & { id: string },
  relevance = 1,
  sig: Partial<RetrievalSignals> = {},
): ScoredCandidate {
  const c = candidate(over, sig);
  const provenance = PROVENANCE_WEIGHTS[c.record.tier];
  return { ...c, scores: { relevance, provenance, recency: 1, score: relevance * provenance }, gateReason: null };
}

/** Sanitizer double: marks "ignore previous instructions" and strips zero-width characters. */
export function fakeSanitize(text: string): { text: string; flags: string[] } {
  const flags: string[] = [];
  let out = text.replace(/[\u200B-\u200D\u2060\uFEFF]/gu, () => (flags.includes('hidden-text') ? '' : (flags.push('hidden-text'), '')));
  if (/ignore (all )?previous instructions/iu.test(out)) {
    flags.push('injection');
    out = out.replace(/ignore (all )?previous instructions/giu, '[neutralized instruction]');
  }
  return { text: out, flags };
}

export const identitySanitize = (text: string) => ({ text, flags: [] as string[] });
