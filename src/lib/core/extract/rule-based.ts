import { kindForCategory } from './category-match';
import { ruleBasedSegments, type Segment } from './segments';
import type { Category, ExtractionMessage, RawUnit } from './units';
import type { ExtractionWindow } from './windows';

export { isNoise } from './noise';

/**
 * The extractor used when no LLM is available: the rule-based segments (`segments.ts`) proposed
 * as raw units, each under the category `categorize` gives it (the rules' own by default; null
 * leaves the segment out). Its output goes through the same validator as an LLM's.
 */
export type Categorizer = (segment: Segment) => Category | null;

/** The rules' own category. */
export const byRules: Categorizer = (segment) => segment.category;

export function ruleBasedUnits(
  window: ExtractionWindow,
  conversation?: readonly ExtractionMessage[],
  categorize: Categorizer = byRules,
): RawUnit[] {
  const units: RawUnit[] = [];
  for (const segment of ruleBasedSegments(window, conversation)) {
    const category = categorize(segment);
    if (category) units.push({ kind: kindForCategory(category), category, text: segment.text, sourceMessageIds: [segment.messageId] });
  }
  return units;
}
