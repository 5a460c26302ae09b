import { kindForCategory } from './category-match';
import { ruleBasedSegments, type Segment } from './segments';
import type { Category, ExtractionMessage, RawUnit } from './units';
import type { ExtractionWindow } from './windows';

export { isNoise } from './noise';

/**
 * The extractor used when no LLM is available: the rule-based segments (`segments.ts`), each
 * filed under a category by `categorize` (the shipped classifier by default, or the rules alone),
 * proposed as raw units. Its output goes through the same validator as an LLM's.
 */
export type Categorizer = (segment: Segment) => Category;

/** The rules' own category. */
export const byRules: Categorizer = (segment) => segment.category;

export function ruleBasedUnits(
  window: ExtractionWindow,
  conversation?: readonly ExtractionMessage[],
  categorize: Categorizer = byRules,
): RawUnit[] {
  return ruleBasedSegments(window, conversation).map((segment) => {
    const category = categorize(segment);
    return { kind: kindForCategory(category), category, text: segment.text, sourceMessageIds: [segment.messageId] };
  });
}
