import { kindForCategory } from './category-match';
import { ruleBasedSegments } from './segments';
import type { ExtractionMessage, RawUnit } from './units';
import type { ExtractionWindow } from './windows';

export { isNoise } from './noise';

/**
 * The extractor used when no LLM is available: the rule-based segments (`segments.ts`) proposed
 * as raw units under the rules' category. Its output goes through the same validator as an LLM's.
 */
export function ruleBasedUnits(window: ExtractionWindow, conversation?: readonly ExtractionMessage[]): RawUnit[] {
  return ruleBasedSegments(window, conversation).map((segment) => ({
    kind: kindForCategory(segment.category),
    category: segment.category,
    text: segment.text,
    sourceMessageIds: [segment.messageId],
  }));
}
