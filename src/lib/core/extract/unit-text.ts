import { DROPPABLE_WORDS, LEADING_FILLER } from './cues';
import { splitClauses, splitSentences } from './sentences';

/**
 * Text rules shared by the validator and the rule-based extractor: minimum viable language
 * (filler removed) and one claim per unit.
 */
export function compressUnitText(text: string): string {
  return text
    .replace(LEADING_FILLER, '')
    .replace(/\s*\([^)]*\)/gu, '')
    .replace(DROPPABLE_WORDS, '')
    .replace(/\s{2,}/gu, ' ')
    .trim();
}

/**
 * The separate claims of a unit text: several sentences, or independent clauses joined by ";" or
 * ", and / but / so ...". A text that splits only into fragments (under three words) is one claim.
 */
export function splitClaims(text: string): string[] {
  const sentences = splitSentences(text);
  const pieces = sentences.length > 1 && sentences.every((s) => s.split(/\s+/u).length >= 3) ? sentences : [text];
  return pieces.flatMap((piece) => splitClauses(piece));
}

const CUT_BEFORE = new Set(
  'to in for because so with when after before since while which who that and but during at on by from about like as how where'.split(' '),
);

/**
 * Minimum viable language for a single clause over the limit: cut before the last connective or
 * preposition that keeps between five and `maxWords` words. Returns the head and the dropped tail
 * (kept in the repair note), or null when no such cut exists.
 */
export function cutTrailingDetail(text: string, maxWords: number): { head: string; tail: string } | null {
  const words = text.split(/\s+/u).filter(Boolean);
  for (let p = Math.min(maxWords, words.length - 1); p >= 5; p -= 1) {
    const word = (words[p] ?? '').toLowerCase().replace(/[^a-z]/gu, '');
    if (CUT_BEFORE.has(word)) {
      return {
        head: words
          .slice(0, p)
          .join(' ')
          .replace(/[,;:]$/u, ''),
        tail: words.slice(p).join(' '),
      };
    }
  }
  return null;
}
