import { proseSentences } from '../text/sentences';
import { DROPPABLE_WORDS, LEADING_FILLER } from './cues';
import { MAX_UNIT_WORDS, wordCount } from './units';

/**
 * Text rules shared by the validator and the rule-based extractor: minimum viable language
 * (filler words removed, nothing else), one claim per unit, and no unit over the word limit: a
 * longer clause is split into several units at its best boundaries, never cut.
 */
export function compressUnitText(text: string): string {
  return text
    .replace(LEADING_FILLER, '')
    .replace(DROPPABLE_WORDS, '')
    .replace(/\s{2,}/gu, ' ')
    .trim();
}

const CLAUSE_BREAK =
  /\s*;\s*|,\s+(?=(?:and|but|so|or|then|while|whereas|although|though)\s)|,\s+(?=(?:at least|at most|no more than|up to|max|maximum|maybe|perhaps|probably)\s)|,\s+(?=(?:can|could|would|should|is|are|do|does|did|will|what|how|why|when|where|which|who)\b[^,]*\?$)|\s+(?=(?:and|but)\s+(?:i|i'm|i've|i'll|we|we're|we'll|you|you're|he|she|they|it|it's|that's|there's)\s)|\s+[-–—]{1,2}\s+/iu;

/**
 * Splits a sentence into clauses at semicolons, dashes and ", and / but / so ..." when every
 * piece keeps at least `minWords` words; otherwise the sentence stays whole.
 */
export function splitClauses(sentence: string, minWords = 2): string[] {
  const breaks = new RegExp(CLAUSE_BREAK.source, 'giu');
  const parts: string[] = [];
  let from = 0;
  for (const m of sentence.matchAll(breaks)) {
    const at = m.index;
    // ", and desserts" closing a list ("salads, sandwiches, and desserts") is not a clause break.
    if (/^,\s+$/u.test(m[0]) && /^(?:and|or)\s/iu.test(sentence.slice(at + m[0].length)) && inList(sentence.slice(from, at))) continue;
    parts.push(sentence.slice(from, at));
    from = at + m[0].length;
  }
  parts.push(sentence.slice(from));
  const clauses = parts
    .map((p) => p.replace(/^(?:and|but|so|or|while|whereas|although|though)\s+/iu, '').trim())
    .filter((p) => p.length > 0);
  if (clauses.length < 2) return [sentence];
  return clauses.every((p) => wordCount(p) >= minWords) ? clauses : [sentence];
}

/** The text before a comma ends inside a list: another comma within its last four words ("Books, movies"). */
function inList(before: string): boolean {
  const words = before.trim().split(/\s+/u);
  return words.slice(-5, -1).some((w) => /,$/u.test(w)) || (/(?:^|\s)[^\s,]+,\s*[^\s,]+$/u.test(before.trim()) && words.length <= 3);
}

/** A comma splice ("No retries, we want real failures."): a comma, then a new subject and its verb. */
const SPLICE =
  /,\s+(?=(?:(?:now|then|also|but|so)\s+)?(?:i|i'm|i've|i'll|we|we're|we've|we'll|you|you're|he|she|they|they're|it|it's|there's|those|these)\s|(?!(?:which|who|that|what|where|when|and|but|or|so)\b)[\p{L}\p{N}-]+(?: (?!(?:which|who|that|and|but|or)\b)[\p{L}\p{N}-]+){0,2} (?:is|are|was|were)\s|(?:nobody|no one|everyone|everybody|neither of (?:us|them)|(?:half|most|all|none) of (?:my|our|the|us|them)(?: [\p{L}-]+)?) [\p{L}']+\s|(?:my|our|his|her|their|the|last|this) [\p{L}-]+(?: [\p{L}-]+)? (?:is|are|was|were|says|said|has|have|had|wants|hates|loves|likes|runs|ended|got|went|decided|won't|can't|doesn't|don't|isn't|will|can|does|did|shows|works|needs|takes|costs|comes|goes|stays|covers|allows|gives|makes|bought|paid|told|found|made|took|gave|left|kept|lost|sent|used|uses|wanted|needed|prefers?|matters?|insists|speaks|teaches|lives|knows|thinks|owns|pays|fits|seems|looks|sounds|feels|means|helps)(?![\p{L}'])|(?!(?:which|who|that|what|where|when|and|but|or|so|it)\b)[\p{L}\p{N}-]+(?: [\p{L}\p{N}-]+)? (?:won't|can't|doesn't|isn't|wasn't|wouldn't)\s)/iu;
const SUBORDINATE_OPENING =
  /^(?:if|since|when|because|as|for|in|with|after|before|once|while|although|though|to|at|on|from|by|given|unless|whether)\b/iu;

/**
 * Splits a comma splice into its sentences, unless the first part is a subordinate or framing
 * clause ("Since you walk a lot, the card is cheaper." stays whole). Pieces keep at least `minWords` words.
 */
export function splitSplices(sentence: string, minWords = 2): string[] {
  if (SUBORDINATE_OPENING.test(sentence)) return [sentence];
  const parts = sentence.split(SPLICE).map((p) => p.trim());
  if (parts.length < 2 || parts.some((p) => wordCount(p) < minWords)) return [sentence];
  return parts;
}

/** Commas at the top level (not inside parentheses). */
function topLevelCommaSplit(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '(' || ch === '[') depth += 1;
    else if ((ch === ')' || ch === ']') && depth > 0) depth -= 1;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim().replace(/^(?:and|or)\s+/iu, '')).filter(Boolean);
}

/**
 * An inline list after a colon as one piece per item ("Options: a mesh, an adapter, or a cable."
 * -> "Options: a mesh" / "an adapter" / "a cable"); the label stays with the first item. A text
 * that is not such a list, or whose items are single words, stays whole.
 */
export function splitList(sentence: string): string[] {
  const m = /^([^:]{1,60}):\s+(.+)$/u.exec(sentence);
  if (!m) return [sentence];
  const items = topLevelCommaSplit(m[2]!.replace(/[.!]\s*$/u, ''));
  if (items.length < 3 || items.some((item) => wordCount(item) < 3)) return [sentence];
  return [`${m[1]}: ${items[0]}`, ...items.slice(1)];
}

/**
 * The separate claims of a unit text: several sentences, or independent clauses joined by ";" or
 * ", and / but / so ...". A text that splits only into fragments (under three words) is one claim.
 */
export function splitClaims(text: string): string[] {
  const sentences = proseSentences(text);
  const pieces = sentences.length > 1 && sentences.every((s) => wordCount(s) >= 3) ? sentences : [text];
  return pieces.flatMap((piece) => splitClauses(piece));
}

const CONJUNCTION = new Set(
  'and but so or because since which while although though whereas then yet unless where when who that if'.split(' '),
);
const PREPOSITION = new Set('to for with in on at from by about after before during into over under without through between'.split(' '));
const MONTH =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)$/u;
const NEGATION = new Set(['not', 'no', 'never', 'nor', 'without', "don't", "won't", "can't", "isn't", "doesn't", "didn't"]);
/** Connectives that may open a piece and are dropped there ("and", "but"...): stop words, never negations. */
const LEADING_CONNECTIVE = /^(?:and|but|so|or|then|plus|also)\s+/iu;

/** Lowercase words inside names ("Cais do Sodré", "Riese & Müller", "Ludwig van Beethoven"). */
const NAME_PARTICLE = /^(?:do|da|de|del|della|der|den|di|du|dos|das|van|von|la|le|el|al|bin|ibn|y|&|and|of)$/u;

/** True when words i-1 and i belong to one name: capitalised words, possibly joined by a particle. */
function insideName(words: readonly string[], i: number): boolean {
  // A capital after a sentence's end opens the sentence; after a comma or colon it is a name's.
  const cap = (k: number): boolean => k >= 0 && k < words.length && /^[\p{Lu}]/u.test(words[k]!) && !/[.!?]$/u.test(words[k - 1] ?? '');
  const particle = (k: number): boolean => k >= 0 && k < words.length && NAME_PARTICLE.test(words[k]!);
  const left = cap(i - 1) || (particle(i - 1) && cap(i - 2));
  const right = cap(i) || (particle(i) && cap(i + 1));
  return left && right && !/[,;:.!?]$/u.test(words[i - 1]!);
}

const bare = (word: string): string => word.toLowerCase().replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, '');
const isNumberish = (word: string): boolean => /\p{N}[^\s]*$/u.test(word.replace(/[,;:.]+$/u, ''));

/**
 * How good a cut before word `i` is: punctuation and conjunctions first, prepositions next; never
 * right before a negation, between a number and its unit, or inside a run of capitalised words.
 */
function boundaryRank(words: readonly string[], i: number, depth: readonly number[]): number {
  const previous = words[i - 1]!;
  const word = bare(words[i]!);
  // Never apart from a negation ("not | Baixa"), inside brackets, or between a month and its day.
  if (NEGATION.has(word) || NEGATION.has(bare(previous)) || depth[i]! > 0) return -1;
  if (MONTH.test(bare(previous)) && /^\d/u.test(word)) return -1;
  if (/[;:]$/u.test(previous) || /^[-–—]+$/u.test(words[i]!)) return 5;
  if (/,$/u.test(previous)) {
    // A fronted frame ("At 9,000 km a year, ...") belongs with what follows it; so do list items.
    const frame = PREPOSITION.has(bare(words[0]!)) && !words.slice(0, i - 1).some((w) => /[,;:]$/u.test(w));
    if (frame) return 0;
    // Between two list items: a fair place when a cut is needed, after clause boundaries.
    if (words.slice(Math.max(0, i - 5), i - 1).some((w) => /,$/u.test(w))) return 2;
    return CONJUNCTION.has(word) ? 4 : 3;
  }
  // "and" / "or" right after a list ("builds muscle, increases power, and prevents injuries").
  if ((word === 'and' || word === 'or') && words.slice(Math.max(0, i - 4), i).some((w) => /,$/u.test(w))) return 0;
  if (isNumberish(previous) && !/[.!?]$/u.test(previous)) return -1;
  if (insideName(words, i)) return -1;
  if (CONJUNCTION.has(word)) return 2;
  if (PREPOSITION.has(word)) return 1;
  return 0;
}

function tidyPiece(words: readonly string[]): string {
  return words
    .join(' ')
    .replace(/^[\s,;:–—-]+|[\s,;:–—-]+$/gu, '')
    .replace(LEADING_CONNECTIVE, '')
    .trim();
}

/** Parenthesis depth before each word: no cut inside "(starter, flour, water)". */
function parenDepth(words: readonly string[]): number[] {
  const depth: number[] = [];
  let d = 0;
  for (const w of words) {
    depth.push(d);
    d = Math.max(0, d + (w.match(/[([]/gu)?.length ?? 0) - (w.match(/[)\]]/gu)?.length ?? 0));
  }
  return depth;
}

function splitWords(words: readonly string[], maxWords: number, minWords: number): string[][] {
  if (words.length <= maxWords) return [[...words]];
  const depth = parenDepth(words);
  let best = -1;
  let bestRank = -3;
  let bestBalance = Infinity;
  for (let i = 1; i < words.length; i += 1) {
    const left = i;
    const right = words.length - i;
    const short = Math.min(left, right) < minWords;
    // A piece under `minWords` is allowed only when nothing better exists.
    const rank = short ? -2 : boundaryRank(words, i, depth);
    const balance = Math.abs(left - right);
    if (rank > bestRank || (rank === bestRank && balance < bestBalance)) {
      best = i;
      bestRank = rank;
      bestBalance = balance;
    }
  }
  return [...splitWords(words.slice(0, best), maxWords, minWords), ...splitWords(words.slice(best), maxWords, minWords)];
}

/**
 * A clause as units of at most `maxWords` words. Filler words go first; if that is not enough the
 * clause is split recursively at its best boundary (most balanced among the best-ranked). Every
 * word but filler and leading connectives ends up in some piece: nothing is dropped.
 */
export function splitToLimit(text: string, maxWords: number = MAX_UNIT_WORDS, minWords = 4): string[] {
  if (wordCount(text) <= maxWords) return [text];
  const compressed = compressUnitText(text);
  if (wordCount(compressed) <= maxWords) return [compressed];
  const words = compressed.split(/\s+/u).filter(Boolean);
  return splitWords(words, maxWords, minWords)
    .map(tidyPiece)
    .filter((p) => /[\p{L}\p{N}]/u.test(p));
}
