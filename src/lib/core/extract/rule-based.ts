import { ACTION, CONSTRAINT, DECISION, HEDGE, LEADING_FILLER, PLEASANTRY, SUGGESTION } from './cues';
import { splitSentences } from './sentences';
import { compressUnitText, splitClaims } from './unit-text';
import { MAX_UNIT_WORDS, wordCount, type Category, type RawUnit, type UnitKind } from './units';
import type { ExtractionWindow, WindowMessage } from './windows';
import { contentWords } from './words';

/**
 * The extractor used when no LLM is available. Per sentence of each cited message: drop pleasantries,
 * classify by cue phrases (question, decision, constraint, action, suggestion, hedge), trim filler,
 * split over-long sentences at clause boundaries. Decisions are proposed only for user messages.
 * Its output goes through the same validator as an LLM's.
 */

/** Assistant turns that address the person rather than state anything ("Would you like me to...?"). */
const ASSISTANT_NOISE =
  /^(?:would you like|do you want|shall i|should i|can i help|let me know|feel free|i hope this helps|here(?:'s| is| are)|sure|certainly|great question)/iu;

/** True for a sentence with no unit of meaning (pleasantries, assistant small talk). */
export function isNoise(sentence: string, role: WindowMessage['role']): boolean {
  if (role === 'assistant' && ASSISTANT_NOISE.test(sentence)) return true;
  const withoutPleasantries = sentence.replace(new RegExp(PLEASANTRY.source, 'giu'), ' ');
  return contentWords(withoutPleasantries).length < 2;
}

interface Classified {
  kind: UnitKind;
  category: Category;
}

function classify(sentence: string, role: WindowMessage['role'], hedged: boolean): Classified {
  const isUser = role === 'user';
  if (/\?\s*$/u.test(sentence)) return { kind: 'question', category: 'Open Questions' };
  if (hedged) return { kind: 'claim', category: 'Provisional/Exploratory' };
  if (isUser && DECISION.test(sentence)) return { kind: 'decision', category: 'Decisions' };
  if (CONSTRAINT.test(sentence)) return { kind: 'constraint', category: 'Constraints' };
  if (isUser && ACTION.test(sentence)) return { kind: 'action-item', category: 'Action Items' };
  if (!isUser && SUGGESTION.test(sentence)) return { kind: 'claim', category: 'Ideas' };
  return { kind: 'fact', category: 'Facts' };
}

/** One sentence in minimum viable language: filler trimmed, "!" made a full stop. */
function tidy(sentence: string): string {
  return sentence.replace(LEADING_FILLER, '').replace(/!+/gu, '.').replace(/\s+/gu, ' ').trim();
}

/** Single claims of at most `MAX_UNIT_WORDS` words where the clause structure allows; the validator judges the rest. */
function pieces(sentence: string): string[] {
  return splitClaims(sentence).flatMap((claim) => {
    if (wordCount(claim) <= MAX_UNIT_WORDS) return [claim];
    const compressed = compressUnitText(claim);
    if (wordCount(compressed) <= MAX_UNIT_WORDS) return [compressed];
    const commaParts = compressed.split(/,\s+/u);
    return commaParts.length > 1 && commaParts.every((p) => wordCount(p) >= 3) ? commaParts : [compressed];
  });
}

export function ruleBasedUnits(window: ExtractionWindow): RawUnit[] {
  const units: RawUnit[] = [];
  for (const message of window.messages) {
    if (message.context) continue;
    for (const raw of splitSentences(message.text)) {
      const sentence = tidy(raw);
      if (!sentence || isNoise(sentence, message.role)) continue;
      const hedged = HEDGE.test(sentence);
      for (const piece of pieces(sentence)) {
        const text = tidy(piece);
        if (isNoise(text, message.role)) continue;
        const { kind, category } = classify(text, message.role, hedged && !/\?\s*$/u.test(text));
        units.push({ kind, category, text, sourceMessageIds: [message.id] });
      }
    }
  }
  return units;
}
