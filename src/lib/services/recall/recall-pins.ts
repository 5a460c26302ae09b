/**
 * The person's pins on a recall result: a pinned record is always kept, and first (so budget
 * assembly makes it Core and never cuts it), whatever the funnel said and even when this query did
 * not retrieve it. Its funnel drop, if any, is taken back; "holds nothing" no longer holds.
 */
import type { CandidateStore } from '../../core/recall/ports';
import { accessWrites, provenanceWeight } from '../../core/recall/scoring';
import type { RecallResult, ScoredCandidate } from '../../core/recall/types';

const PINNED_REASON = 'pinned by you: always kept';

export async function applyPins(
  result: RecallResult,
  pinnedIds: readonly string[],
  store: CandidateStore,
  now: number,
): Promise<RecallResult> {
  if (pinnedIds.length === 0) return result;
  const pinned = new Set(pinnedIds);
  const found = new Map<string, ScoredCandidate>();
  for (const c of result.items) if (pinned.has(c.record.id)) found.set(c.record.id, c);
  for (const d of result.dropped)
    if (pinned.has(d.candidate.record.id) && !found.has(d.candidate.record.id)) found.set(d.candidate.record.id, d.candidate);
  const missing = pinnedIds.filter((id) => !found.has(id));
  for (const record of missing.length ? await store.get(missing) : []) {
    found.set(record.id, {
      record: { ...record, pinned: true },
      signals: { bm25Rank: null, bm25Score: null, vectorRank: null, vectorSimilarity: null, rrf: 0, variants: [] },
      scores: { relevance: 0, provenance: provenanceWeight(record.tier), recency: 1, score: 0 },
      gateReason: null,
    });
  }
  const pins = pinnedIds.flatMap((id) => {
    const c = found.get(id);
    return c ? [{ ...c, record: { ...c.record, pinned: true }, gateReason: c.gateReason ?? PINNED_REASON }] : [];
  });
  const items = [...pins, ...result.items.filter((c) => !pinned.has(c.record.id))];
  return {
    ...result,
    items,
    dropped: result.dropped.filter((d) => !pinned.has(d.candidate.record.id)),
    holdsNothing: items.length > 0 ? null : result.holdsNothing,
    accessWrites: accessWrites(items, now),
  };
}
