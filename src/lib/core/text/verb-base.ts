/**
 * The base form of an irregular English verb form ("went" -> "go", "bought" -> "buy", "ran" -> "run"),
 * from WordNet's verb exceptions as the maintained `wink-lexicon` package ships them (MIT, 2,223
 * forms). The Porter stemmer joins regular forms ("painted", "paints" -> "paint") but never irregular
 * ones, and a question asks with the base form ("When did she go ...?") where the turn said "I went".
 * A word the table does not hold (every regular form) comes back as null.
 */
import exceptions from 'wink-lexicon/src/wn-verb-exceptions.js';

export function verbBase(word: string): string | null {
  const lower = word.toLowerCase();
  return Object.hasOwn(exceptions, lower) ? (exceptions[lower] ?? null) : null;
}
