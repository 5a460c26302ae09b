/**
 * English text analysis for lexical retrieval (BM25, the lexical embedder): lowercase, split on
 * anything that is not a letter or digit, fold apostrophes ("don't" -> "dont"), drop stop words,
 * Porter-stem with the maintained `stemmer` package.
 */
import { stemmer } from 'stemmer';
import { STOP_WORDS } from './stop-words';

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
const APOSTROPHE = /['’]/gu;
const MAX_WORD = 40;

// Stemming dominates analysis time and chat vocabulary repeats: a bounded memo pays off many times.
const stems = new Map<string, string>();
const STEM_CACHE_LIMIT = 100_000;

export function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = /^\p{N}+$/u.test(word) ? word : stemmer(word);
    if (stems.size >= STEM_CACHE_LIMIT) stems.clear();
    stems.set(word, s);
  }
  return s;
}

/**
 * Calls `visit` with each word of `text` as the index reads it (lowercased, apostrophes folded;
 * words over MAX_WORD left out) and where it stands in `text` (UTF-16 offsets): the one word
 * pattern that indexing and highlighting share.
 */
export function forEachWord(text: string, visit: (word: string, start: number, end: number) => void): void {
  for (const match of text.matchAll(WORD)) {
    const w = match[0].toLowerCase().replace(APOSTROPHE, '');
    if (w.length <= MAX_WORD) visit(w, match.index, match.index + match[0].length);
  }
}

/** Lowercased words (apostrophes folded), stop words included. */
export function words(text: string): string[] {
  const out: string[] = [];
  forEachWord(text.toLowerCase(), (w) => out.push(w));
  return out;
}

/** Index terms of a text: words without stop words, stemmed, in order (repeats kept). */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (!STOP_WORDS.has(w)) out.push(stem(w));
  }
  return out;
}
