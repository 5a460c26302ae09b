import { contentWordSet, NEGATORS, stem, tokens } from '../extract/words';

/**
 * Rule-based contradiction between two short statements: they must talk about the same thing
 * (overlapping content words) and differ in polarity (negation), by an antonym pair, or by a
 * changed value (a number, or for decisions and constraints the one term that was swapped). An
 * antonym or a changed number counts only when at most one other word differs on each side: two
 * statements about different subjects that share a verb and a weekday are not a contradiction.
 */
export type ConflictKind = 'negation' | 'antonym' | 'value-change';

export interface Conflict {
  kind: ConflictKind;
  /** The terms the two statements share. */
  shared: string[];
  /** What differs: the negator, the antonym pair, or the swapped values. */
  differing: string[];
  explanation: string;
}

const ANTONYM_PAIRS: readonly (readonly [string, string])[] = [
  ['enable', 'disable'],
  ['allow', 'forbid'],
  ['allow', 'block'],
  ['include', 'exclude'],
  ['increase', 'decrease'],
  ['always', 'never'],
  ['use', 'avoid'],
  ['keep', 'remove'],
  ['keep', 'drop'],
  ['add', 'remove'],
  ['accept', 'reject'],
  ['true', 'false'],
  ['on', 'off'],
  ['more', 'less'],
  ['before', 'after'],
  ['start', 'stop'],
  ['open', 'closed'],
  ['public', 'private'],
  ['required', 'optional'],
  ['like', 'dislike'],
  ['love', 'hate'],
  ['local', 'remote'],
  ['online', 'offline'],
  ['encrypted', 'unencrypted'],
  ['safe', 'unsafe'],
  ['possible', 'impossible'],
  ['success', 'failure'],
  ['win', 'lose'],
  ['buy', 'sell'],
  ['higher', 'lower'],
  ['larger', 'smaller'],
  ['faster', 'slower'],
  ['good', 'bad'],
  ['better', 'worse'],
  ['easy', 'hard'],
  ['cheap', 'expensive'],
  ['sync', 'async'],
];

const ANTONYMS = new Map<string, Set<string>>();
for (const [a, b] of ANTONYM_PAIRS) {
  const [sa, sb] = [stem(a), stem(b)];
  ANTONYMS.set(sa, (ANTONYMS.get(sa) ?? new Set()).add(sb));
  ANTONYMS.set(sb, (ANTONYMS.get(sb) ?? new Set()).add(sa));
}

const NUMBER = /^\d+(?:[.,]\d+)?$/u;

function polarity(text: string): number {
  return tokens(text).filter((t) => NEGATORS.has(t)).length % 2;
}

/** Stems of every token, stop words included: antonyms such as "on" and "more" are stop words. */
function allStems(text: string): Set<string> {
  return new Set(tokens(text).map(stem));
}

export interface ConflictOptions {
  /** Share of the smaller statement's content words the other must contain. */
  minOverlap?: number;
  /** When both statements are decisions or constraints, a single swapped term counts as a change. */
  slotSwap?: boolean;
}

export function detectConflict(a: string, b: string, options: ConflictOptions = {}): Conflict | null {
  const minOverlap = options.minOverlap ?? 0.6;
  const wa = contentWordSet(a);
  const wb = contentWordSet(b);
  const shared = [...wa].filter((w) => wb.has(w));
  const onlyA = [...wa].filter((w) => !wb.has(w));
  const onlyB = [...wb].filter((w) => !wa.has(w));
  const smaller = Math.min(wa.size, wb.size);
  if (smaller === 0 || shared.length === 0) return null;
  const overlap = shared.length / smaller;

  if (shared.length >= 2 && overlap >= minOverlap && polarity(a) !== polarity(b)) {
    const negators = [...tokens(a), ...tokens(b)].filter((t) => NEGATORS.has(t));
    return { kind: 'negation', shared, differing: [...new Set(negators)], explanation: 'One statement negates the other.' };
  }

  const sa = allStems(a);
  const sb = allStems(b);
  for (const x of sa) {
    for (const y of ANTONYMS.get(x) ?? []) {
      if (sb.has(y) && !sb.has(x) && !sa.has(y)) {
        const rest = shared.filter((w) => w !== x && w !== y);
        const sameSubject = onlyA.filter((w) => w !== x).length <= 1 && onlyB.filter((w) => w !== y).length <= 1;
        if (sameSubject && rest.length >= 1 && rest.length / Math.max(1, smaller - 1) >= minOverlap - 0.1) {
          return { kind: 'antonym', shared: rest, differing: [x, y], explanation: `"${x}" against "${y}".` };
        }
      }
    }
  }

  // Numbers from every token: content words drop one-character tokens, so "2" -> "19" was unseen.
  const numbersA = new Set(tokens(a).filter((t) => NUMBER.test(t)));
  const numbersB = new Set(tokens(b).filter((t) => NUMBER.test(t)));
  const numsA = [...numbersA].filter((n) => !numbersB.has(n));
  const numsB = [...numbersB].filter((n) => !numbersA.has(n));
  // The same thing: besides the numbers, at most one word differs on each side ("Ann runs 5 km" and
  // "Bob runs 10 km" are two people, not a changed value).
  const sameThing = onlyA.filter((w) => !NUMBER.test(w)).length <= 1 && onlyB.filter((w) => !NUMBER.test(w)).length <= 1;
  if (numsA.length > 0 && numsB.length > 0 && sameThing && shared.length >= 2 && overlap >= minOverlap - 0.1) {
    return { kind: 'value-change', shared, differing: [...numsA, ...numsB], explanation: 'The same thing with a different value.' };
  }

  if (options.slotSwap && shared.length >= 2 && onlyA.length >= 1 && onlyA.length <= 2 && onlyB.length >= 1 && onlyB.length <= 2) {
    return {
      kind: 'value-change',
      shared,
      differing: [...onlyA, ...onlyB],
      explanation: `The same choice with "${onlyA.join(' ')}" replaced by "${onlyB.join(' ')}".`,
    };
  }
  return null;
}
