/**
 * Reciprocal rank fusion (Cormack, Clarke & Buettcher 2009): score(d) = sum over ranked lists of
 * w_list / (k + rank_d), rank 1-based, lists that miss d contribute nothing. k = 60 as in the paper:
 * it damps the head so one list's first place cannot outvote agreement across lists. Weights (1 by
 * default) let a supplemental list count less than the prompt's own lists; lists of one `group` are
 * fused by max (each id counts at its best list of the group).
 */
export const RRF_K = 60;

export interface RankedList {
  /** Ids best first; a repeated id counts at its first rank only. */
  ids: readonly string[];
  /** Weight of the list (> 0); 1 unless told. */
  weight?: number;
  /**
   * Lists of one group give an id the largest of their contributions, not their sum: a document's
   * hint list lifts it to its best of content and hint match, never both (hints.ts).
   */
  group?: string;
}

export interface Fused {
  id: string;
  score: number;
}

/**
 * Fused scores. Each id's contributions are summed largest first, so the result is bit-identical
 * whatever order the lists come in.
 */
export function rrfScores(lists: readonly RankedList[], k: number = RRF_K): Map<string, number> {
  const contributions = new Map<string, Map<string, number>>();
  lists.forEach((list, n) => {
    const weight = list.weight ?? 1;
    const key = list.group === undefined ? `#${n}` : `g:${list.group}`;
    const seen = new Set<string>();
    list.ids.forEach((id, index) => {
      if (seen.has(id)) return;
      seen.add(id);
      const value = weight / (k + index + 1);
      const entry = contributions.get(id) ?? contributions.set(id, new Map()).get(id)!;
      entry.set(key, Math.max(entry.get(key) ?? 0, value));
    });
  });
  const scores = new Map<string, number>();
  for (const [id, byList] of contributions) {
    const values = [...byList.values()].sort((a, b) => b - a);
    scores.set(
      id,
      values.reduce((sum, v) => sum + v, 0),
    );
  }
  return scores;
}

/** Ids by fused score, best first; ties broken by id so the order is deterministic. */
export function fuse(lists: readonly RankedList[], k: number = RRF_K): Fused[] {
  return [...rrfScores(lists, k)]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
