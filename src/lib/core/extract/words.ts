import { stemmer } from 'stemmer';

/**
 * Content words: the terms that carry a sentence's meaning, for overlap rules (coverage eval,
 * duplicate and contradiction checks). Lowercased, split on anything but letters, digits and
 * apostrophes, stop words removed, Porter-stemmed.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each few for from further had has have ' +
    'having he her here hers herself him himself his how i if in into is it its itself just let me more ' +
    'most my myself no nor not of off on once only or other our ours ourselves out over own same she ' +
    'should so some such than that the their theirs them themselves then there these they this those ' +
    'through to too under until up very was we were what when where which while who whom why will with ' +
    'would you your yours yourself yourselves also really actually lot lots much many get got go going ' +
    'gonna thing things something anything everything yeah yes oh ok okay well like just still even ' +
    "'s 's n't im ive id ill youre youve dont didnt doesnt isnt wasnt cant wont thats theres whats"
  ).split(/\s+/u),
);

const BARE_CONTRACTIONS: Readonly<Record<string, string>> = {
  dont: "don't",
  doesnt: "doesn't",
  didnt: "didn't",
  isnt: "isn't",
  arent: "aren't",
  wasnt: "wasn't",
  cant: "can't",
  couldnt: "couldn't",
  shouldnt: "shouldn't",
  wouldnt: "wouldn't",
  im: "I'm",
  ive: "I've",
  theres: "there's",
  thats: "that's",
  whats: "what's",
  youre: "you're",
  theyre: "they're",
};

/**
 * Contractions typed without their apostrophe, as on a phone ("ill call him", "lets go", "dont"),
 * written out again so the rules read them. "ill" and "lets" only where a clause starts and a word
 * follows ("ill call him", not "I feel ill"; "lets rotate", not "it lets you").
 */
export function restoreApostrophes(text: string): string {
  return text
    .replace(BARE_CONTRACTION, (word) => sameCase(word, BARE_CONTRACTIONS[word.toLowerCase()]!))
    .replace(
      /(^|[,;:]\s*|\b(?:and|so|but)\s+)(its)(?=\s+(?:a|an|the|not|just|only|so|too|very|really|been|going|fine|ok|okay|all)\b)/giu,
      (_, before: string, word: string) => before + sameCase(word, "it's"),
    )
    .replace(
      /(^|[,;:]\s*|\b(?:and|so|then|but|ok|okay|yes|yeah|yep)\s+)(ill|lets)(?=\s+\p{L})/giu,
      (_, before: string, word: string) => before + sameCase(word, word.toLowerCase() === 'ill' ? "I'll" : "let's"),
    );
}

const BARE_CONTRACTION = new RegExp(`\\b(?:${Object.keys(BARE_CONTRACTIONS).join('|')})\\b`, 'giu');

/** `full` with a capital first letter where the typed word had one ("Ill" -> "I'll", "Dont" -> "Don't"). */
const sameCase = (typed: string, full: string): string =>
  typed[0] === typed[0]!.toUpperCase() ? full[0]!.toUpperCase() + full.slice(1) : full;

/** Words that flip a statement's polarity (kept apart: they are stop words for overlap, signals for contradiction). */
export const NEGATORS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'none',
  'nobody',
  'nothing',
  'neither',
  'nor',
  'without',
  "n't",
  'cannot',
]);

const CONTRACTION = /n't$/u;

/** Lowercased word tokens, contractions split so "don't" yields "do" and "n't". */
export function tokens(text: string): string[] {
  const out: string[] = [];
  const raw =
    text
      .toLowerCase()
      .replace(/[’‘]/gu, "'")
      .match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
  for (const token of raw) {
    if (token === 'cannot') {
      out.push('can', 'cannot');
    } else if (CONTRACTION.test(token)) {
      out.push(token.replace(CONTRACTION, '') || token, "n't");
    } else if (token.endsWith("'s")) {
      out.push(token.slice(0, -2));
    } else {
      out.push(token);
    }
  }
  return out;
}

export function stem(word: string): string {
  return /^\p{N}+$/u.test(word) ? word : stemmer(word);
}

/** Stemmed content words in order (with repeats). `exclude` drops extra words (e.g. speaker names). */
export function contentWords(text: string, exclude: ReadonlySet<string> = new Set()): string[] {
  return tokens(text)
    .filter((t) => t.length > 1 && !STOP_WORDS.has(t) && !NEGATORS.has(t) && !exclude.has(t))
    .map(stem);
}

export function contentWordSet(text: string, exclude?: ReadonlySet<string>): Set<string> {
  return new Set(contentWords(text, exclude));
}

/** |a ∩ b| / |a ∪ b|; 0 when both are empty. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/** |a ∩ b| / min(|a|, |b|): how much of the smaller set the other covers. */
export function overlapCoefficient(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const smaller = Math.min(a.size, b.size);
  if (smaller === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared += 1;
  return shared / smaller;
}
