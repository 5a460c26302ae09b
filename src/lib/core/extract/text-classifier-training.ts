import { eligibleAlignment } from './eval-labelled';
import { corpusMessages, goldUnits, type LabelledConversation } from './labelled-corpus';
import { ruleBasedSegments } from './segments';
import { NONE, textFeatures, type TextExample } from './text-classifier';
import type { ExtractionWindow } from './windows';

/**
 * Training examples from labelled conversations: every rule-based segment with the category of the
 * gold unit it stands for (the evaluation's pairing, whatever the categories: same turn, same
 * polarity, Dice >= 0.5, one-to-one by overlap), or `none` when it stands for no gold unit.
 */
export function textExamples(conversations: readonly LabelledConversation[]): TextExample[] {
  const examples: TextExample[] = [];
  for (const conversation of conversations) {
    const messages = corpusMessages(conversation);
    const window: ExtractionWindow = {
      index: 0,
      tokenCount: 0,
      messages: messages.map((m, i) => ({ ...m, label: `m${i + 1}`, context: false, part: null })),
    };
    const segments = ruleBasedSegments(window, messages);
    const gold = goldUnits(conversation);
    const aligned = eligibleAlignment(
      gold,
      segments.map((s) => ({ text: s.text, sourceMessageIds: [s.messageId] })),
    );
    segments.forEach((segment, i) => {
      const g = aligned.get(i);
      examples.push({ features: textFeatures(segment), label: g === undefined ? NONE : gold[g]!.category });
    });
  }
  return examples;
}
