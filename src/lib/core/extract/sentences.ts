/**
 * Sentence splitting for extraction: code blocks dropped, one block per line or list item,
 * sentences by `Intl.Segmenter` (available in browsers, workers and Node), markdown markers stripped.
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

const ABBREVIATION = /\b(?:e\.g|i\.e|vs|mr|mrs|ms|dr|st|jr|sr|approx|fig|cf)\.$/iu;
const CODE_FENCE = /```[\s\S]*?(?:```|$)/gu;
const LIST_MARKER = /^\s*(?:[-*+•]|\d+[.)]|#{1,6}|>)\s+/u;
const EMPHASIS = /(\*\*|__|\*|_|`)(.+?)\1/gu;
const LINK = /\[([^\]]+)\]\([^)]+\)/gu;

export function stripMarkdown(line: string): string {
  return line.replace(LIST_MARKER, '').replace(LINK, '$1').replace(EMPHASIS, '$2').trim();
}

/** The sentences of a message, in order. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  const lines = text.replace(CODE_FENCE, '\n').split(/\n+/u);
  for (const line of lines) {
    const block = stripMarkdown(line);
    if (!block) continue;
    let pending = '';
    for (const { segment } of segmenter.segment(block)) {
      const sentence = `${pending}${segment}`.replace(/\s+/gu, ' ').trim();
      // ICU breaks after "e.g." and "Mr." here: join such a piece to the next one.
      if (ABBREVIATION.test(sentence)) {
        pending = `${sentence} `;
        continue;
      }
      pending = '';
      if (sentence) out.push(sentence);
    }
    if (pending.trim()) out.push(pending.trim());
  }
  return out;
}

const CLAUSE_BREAK =
  /\s*;\s*|,\s+(?=(?:and|but|so|while|whereas|although|though)\s)|\s+(?=(?:and|but|so)\s+(?:i|i'm|i've|i'll|we|we're|you|you're|he|she|they|it|it's|that's|there's)\s)|\s+[-–—]{1,2}\s+/iu;

/**
 * Splits a sentence into clauses at semicolons, dashes and ", and / but / so ..." when every
 * piece keeps at least `minWords` words; otherwise the sentence stays whole.
 */
export function splitClauses(sentence: string, minWords = 3): string[] {
  const parts = sentence
    .split(CLAUSE_BREAK)
    .map((p) => p.replace(/^(?:and|but|so|while|whereas|although|though)\s+/iu, '').trim())
    .filter((p) => p.length > 0);
  if (parts.length < 2) return [sentence];
  const words = (p: string): number => p.split(/\s+/u).filter(Boolean).length;
  return parts.every((p) => words(p) >= minWords) ? parts : [sentence];
}
