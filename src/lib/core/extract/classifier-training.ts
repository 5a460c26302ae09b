import type { TrainingExample } from './category-classifier';
import { alignUnits } from './eval-labelled';
import { corpusMessages, goldUnits, type LabelledConversation } from './labelled-corpus';
import { segmentFeatures } from './segment-features';
import { ruleBasedSegments } from './segments';
import type { ExtractionWindow } from './windows';

/**
 * Training examples from labelled conversations: every rule-based segment that stands for a gold
 * unit (the evaluation's pairing: same turn, same polarity, Dice >= 0.5) with that unit's
 * category as its label. Segments that stand for no gold unit teach nothing and are left out.
 */
export function trainingExamples(conversations: readonly LabelledConversation[]): TrainingExample[] {
  const examples: TrainingExample[] = [];
  for (const conversation of conversations) {
    const messages = corpusMessages(conversation);
    const window: ExtractionWindow = {
      index: 0,
      tokenCount: 0,
      messages: messages.map((m, i) => ({ ...m, label: `m${i + 1}`, context: false, part: null })),
    };
    const segments = ruleBasedSegments(window, messages);
    const gold = goldUnits(conversation);
    const aligned = alignUnits(
      gold,
      segments.map((s) => ({ text: s.text, sourceMessageIds: [s.messageId], category: s.category })),
    );
    segments.forEach((segment, i) => {
      const g = aligned.get(i);
      if (g !== undefined) examples.push({ features: segmentFeatures(segment), label: gold[g]!.category });
    });
  }
  return examples;
}
