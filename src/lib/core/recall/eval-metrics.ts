/** Evidence recall measures for the LoCoMo evaluation (pure, deterministic). */

/** An item of a ranked result as evaluation sees it: the evidence turns behind it and its size. */
export interface RankedEvidenceItem {
  diaIds: readonly string[];
  tokens: number;
}

/** Share of the evidence ids covered by the items (0..1); 0 for no evidence is never asked. */
export function evidenceRecall(evidence: readonly string[], items: readonly RankedEvidenceItem[]): number {
  if (evidence.length === 0) return 0;
  const covered = new Set(items.flatMap((i) => i.diaIds));
  return evidence.filter((id) => covered.has(id)).length / evidence.length;
}

export function recallAtK(evidence: readonly string[], ranked: readonly RankedEvidenceItem[], k: number): number {
  return evidenceRecall(evidence, ranked.slice(0, k));
}

/** Items packed in rank order while they fit in `budget` tokens: the first that does not fit ends the package. */
export function packByBudget<T extends RankedEvidenceItem>(ranked: readonly T[], budget: number): T[] {
  const packed: T[] = [];
  let used = 0;
  for (const item of ranked) {
    if (used + item.tokens > budget) break;
    packed.push(item);
    used += item.tokens;
  }
  return packed;
}

export function recallAtBudget(evidence: readonly string[], ranked: readonly RankedEvidenceItem[], budget: number): number {
  return evidenceRecall(evidence, packByBudget(ranked, budget));
}

/**
 * Package precision: the share of the package's items that hold evidence (at least one evidence turn
 * behind the item). Null for an empty package (a refusal has no precision; it is counted apart as a
 * refusal). One definition for every mode and stage (eval locomo's `packagePrecision`).
 */
export function packagePrecision(evidence: readonly string[], items: readonly RankedEvidenceItem[]): number | null {
  if (items.length === 0) return null;
  const wanted = new Set(evidence);
  return items.filter((i) => i.diaIds.some((id) => wanted.has(id))).length / items.length;
}

/** Whether an item holds any of the evidence turns. */
export function holdsEvidence(evidence: readonly string[], item: RankedEvidenceItem): boolean {
  return item.diaIds.some((id) => evidence.includes(id));
}

/** Tokens of the package's items, as stored (the chunker's count). */
export function packageTokens(items: readonly RankedEvidenceItem[]): number {
  return items.reduce((sum, i) => sum + i.tokens, 0);
}

/** Nearest-rank percentile (0-100); NaN for no samples. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Rounded for reports: 4 decimals is below LoCoMo's resolution (one question of ~760 is 0.0013). */
export function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
