import { HEDGE, REPORTED } from './cues';
import { contentWordSet, NEGATORS, stem, tokens } from './words';
import { wordCount } from './units';

/**
 * A user turn taking the assistant's suggestion ("Yes, let's do that.", "The second one.",
 * "Cards it is."): the Decision cites the user turn and says what was adopted. Only the
 * suggestions of the assistant message right before the user's count.
 */
export interface Suggestion {
  /** The suggestion without its lead-in ("You could also add X" -> "add X"). */
  text: string;
  terms: Set<string>;
}

const LEAD_IN =
  /^(?:(?:then|also|so|and|or|maybe|perhaps|alternatively),?\s+)*(?:you (?:could|might|may|can)(?: also)?(?: want to)?|(?:i'd|i would) (?:recommend|suggest)(?: that you)?|i (?:recommend|suggest)|consider|one option is(?: to)?|another option is(?: to)?|for example,?|such as)\s+/iu;

/** A leading frame ("With four days, ") or a short label before a colon ("Tofu works well: ") is not what was suggested. */
const FRAME = /^(?:(?:for|in|at|on|with|after|before|during|once|when|if|as)\b[^,]{1,40},\s*|[^:,]{1,30}:\s+)/iu;

/** Terms for comparing a reply with a suggestion: "Wi-Fi" and "wifi" are one word. */
const termsOf = (text: string): Set<string> => contentWordSet(text.replace(/(?<=\p{L})-(?=\p{L})/gu, ''));

/** A purpose or reason after the suggestion ("so devices don't cling to it") is not part of what is adopted. */
const PURPOSE = /,?\s+(?:so that|so|because|since)\s+.*$/iu;

export function suggestion(text: string): Suggestion {
  const stripped = text.replace(LEAD_IN, '').replace(FRAME, '').replace(LEAD_IN, '').replace(PURPOSE, '').trim();
  const body = stripped ? stripped.charAt(0).toUpperCase() + stripped.slice(1) : text;
  return { text: body, terms: termsOf(body) };
}

/** Words that only acknowledge or point ("yes", "then", "it is", "that one"): not what was chosen. */
const POINTING: ReadonlySet<string> = new Set(
  'yes yeah yep sure ok okay fine agree agreed perfect great good idea love sounds sound done let one option please obviously definitely thanks now too plus said'
    .split(' ')
    .map(stem),
);
const DEICTIC =
  /\b(?:let(?:'s| us) do (?:that|this|it|both|those)|(?:i|we)(?:'ll| will) do (?:that|this|it|both)|do (?:that|this|it)\b|doing (?:that|this|it)\b|go with (?:that|this|it)\b|\b(?:use|keep|take|adopt) (?:that|this|those|these)\b|(?:that|this) one\b|the (?:first|second|third|last|1st|2nd|3rd) (?:one|option)\b|option (?:\d|[a-c])\b|\b[a-z]+ing (?:it|that|this|those|them)\b|^(?:\S+\s+){1,3}it is\.?$|(?:sounds good|yes|ok|okay|agreed|deal),? (?:let(?:'s| us)|we(?:'ll| will)|i(?:'ll| will))\b)/iu;
const ORDINAL: Record<string, number> = {
  first: 0,
  '1st': 0,
  second: 1,
  '2nd': 1,
  third: 2,
  '3rd': 2,
  a: 0,
  b: 1,
  c: 2,
  '1': 0,
  '2': 1,
  '3': 2,
};

const ORDINAL_REF = /\b(?:the )?(first|second|third|last|1st|2nd|3rd) (?:one|option)\b|\boption (\d|[a-c])\b/iu;

function ordinalPick(clause: string, suggestions: readonly Suggestion[]): Suggestion | null {
  const m = ORDINAL_REF.exec(clause);
  if (!m) return null;
  const key = (m[1] ?? m[2] ?? '').toLowerCase();
  if (key === 'last') return suggestions.at(-1) ?? null;
  return suggestions[ORDINAL[key] ?? -1] ?? null;
}

/**
 * The run of content words around the chosen terms in a statement: the option's full name
 * ("2020 Yaris Hybrid", "glow-in-the-dark star pack"), or null when the terms are far apart.
 */
export function namedSpan(text: string, chosen: readonly string[]): string | null {
  const words = text.split(/\s+/u).filter(Boolean);
  const bare = words.map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''));
  const hits = bare.flatMap((w, i) => (chosen.some((t) => termsOf(w).has(t)) ? [i] : []));
  if (hits.length === 0) return null;
  const stop = (i: number): boolean => !bare[i] || (contentWordSet(bare[i]!).size === 0 && !/^\p{N}/u.test(bare[i]!));
  let from = Math.min(...hits);
  let to = Math.max(...hits);
  if (to - from > 4) return null;
  while (from > 0 && !stop(from - 1) && !/[,.;:!?)]$/u.test(words[from - 1]!) && !/[(]/u.test(words[from]!)) from -= 1;
  while (to < words.length - 1 && !stop(to + 1) && !/[,.;:!?(]$/u.test(words[to]!) && !/^[(]/u.test(words[to + 1]!)) to += 1;
  const span = words
    .slice(from, to + 1)
    .join(' ')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  return span ? span.charAt(0).toUpperCase() + span.slice(1) : null;
}

export interface Adoption {
  text: string;
  adopted: Suggestion;
}

export interface AdoptionInput {
  clause: string;
  /** The Ideas of the assistant message right before. */
  suggestions: readonly Suggestion[];
  /** Every other statement of that message (a verbless "Yaris." picks one of its options too). */
  statements: readonly Suggestion[];
  /** The rules already read the clause as the person's Decision in its own words ("Going with Dexie."). */
  explicit: boolean;
  /** The clause has no finite verb ("The oven light idea, yes."). */
  verbless: boolean;
}

const APPROVAL = /\b(?:is|are|sounds?|looks?) (?:great|perfect|good|fine|ideal|right|brilliant|lovely)\b|\blove it\b/iu;
/** The person reporting they already took an option ("Ordered the Q2U."). */
const DONE = /^(?:(?:i|we)(?:'ve| have)?\s+)?(?:ordered|bought|booked|got|picked|chose|installed|signed up for|went with)\b/iu;
/** A trailing reason ("since it's free") says why, not what was chosen. */
const REASON = /\s+(?:since|because|as|so)\s+.*$/iu;

const negated = (text: string): boolean => tokens(text).some((t) => NEGATORS.has(t));
/** An example given ("For example, a regex filter on user input - should we ...?") illustrates; it picks nothing. */
const EXAMPLE = /^(?:for example|for instance|e\.g\.|such as)\b/iu;
/** A question, a hedge, an example or someone else's choice picks nothing. */
const picksNothing = (clause: string): boolean =>
  /\?\s*$/u.test(clause) || HEDGE.test(clause) || REPORTED.test(clause) || EXAMPLE.test(clause);
/** The words a reply chooses: its terms, acknowledgements and pointers ("yes", "that one") left out. */
const chosenTerms = (text: string): string[] => [...termsOf(text)].filter((t) => !POINTING.has(t));
/** "Just one worker for now" describes the person's case; it picks nothing. */
const OWN_CASE = /\b(?:just|only)\b/iu;

/**
 * The suggestion a user clause adopts, if any: by ordinal ("the second one"), by pointing ("let's
 * do that": the suggestion sharing most words, else the first), or by echoing it in a short
 * verbless or approving reply (every word the clause chooses appears in one suggestion, or in
 * one statement of the message for a verbless reply). A question, a hedge, someone else's
 * choice, or a reply of the opposite polarity ("No showers at the office.") adopts nothing.
 */
/** The clause points back at something said before ("let's do that", "the second one", "Cards it is"). */
export function pointsBack(clause: string): boolean {
  return DEICTIC.test(clause) || ORDINAL_REF.test(clause);
}

export function adoptionOf(input: AdoptionInput): Adoption | null {
  const { clause } = input;
  // A question, a hedge, someone else's choice or a refusal ("No yeast.") takes nothing.
  if (picksNothing(clause) || negated(clause)) return null;
  const { suggestions } = input;
  const main = clause.replace(REASON, '').replace(DONE, '');
  const chosen = chosenTerms(main);
  const overlap = (s: Suggestion): number => chosen.filter((t) => s.terms.has(t)).length;
  const best = [...suggestions].sort((a, b) => overlap(b) - overlap(a))[0];
  const ordinal = ordinalPick(clause, suggestions);
  const deictic = DEICTIC.test(clause);
  const echo = (input.verbless || APPROVAL.test(clause) || DONE.test(clause)) && chosen.length > 0 && chosen.length <= 4;
  let adopted: Suggestion | null = ordinal;
  if (!adopted && deictic && best) adopted = overlap(best) > 0 ? best : suggestions[0]!;
  if (!adopted && echo && best && overlap(best) * 2 >= chosen.length) adopted = best;
  if (!adopted && echo && !OWN_CASE.test(clause)) {
    const named = input.statements.find((s) => chosen.every((t) => s.terms.has(t)));
    // An option named in a statement ("Yaris." after "...a 2020 Yaris Hybrid with 50,000 km"): the name as the assistant gave it.
    if (named) return { text: namedSpan(named.text, chosen) ?? clause, adopted: named };
  }
  if (!adopted) return null;
  if (input.explicit && !ordinal && !deictic) return { text: clause, adopted };
  const extra = chosen.filter((t) => !adopted.terms.has(t));
  if (extra.length === 0) return { text: adopted.text, adopted };
  const own = clause.replace(/[.!\s]+$/u, '');
  const lead = /^I\b/u.test(adopted.text) ? adopted.text : `${adopted.text.charAt(0).toLowerCase()}${adopted.text.slice(1)}`;
  const joined = `${own}: ${lead}`;
  return { text: wordCount(joined) <= 15 ? joined : adopted.text, adopted };
}

/**
 * A verbless reply naming what the assistant's message offered ("Aqara T1 for the sensors." after
 * a message comparing sensors): the person picks from it. Needs a chosen word of the reply (not an
 * acknowledgement) in one of the message's suggestions or statements.
 */
export function echoesOffer(clause: string, offered: readonly Suggestion[]): boolean {
  const chosen = chosenTerms(clause.replace(REASON, ''));
  // "My wife's car" describes the person's case too.
  const own = OWN_CASE.test(clause) || /^(?:my|our|his|her|their)\b/iu.test(clause);
  if (chosen.length === 0 || own || picksNothing(clause)) return false;
  return offered.some((s) => chosen.some((t) => s.terms.has(t)));
}
