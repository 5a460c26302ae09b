/**
 * Refusal with evidence: when the prompt names a person the vault knows and every memory that
 * matches the rest of the prompt is about someone else, the answer is "the vault holds nothing on
 * this about <person>; what matches is about <other>", not a package about the wrong person.
 *
 * A memory is about a person when that person said it (a turn in the first person is about its
 * speaker) or when its text names them other than as the one addressed ("Thanks, Caroline!" speaks
 * to Caroline, it is not about her). A question says nothing about its speaker ("You play any
 * instruments?"), so only a memory's statements count. The matching memories are the first `window` candidates in
 * fused order whose coverage of the prompt's other informative words is at least `ratio` of the
 * best such coverage. No named person, or no speakers known: the check does not run.
 */
import { analyze } from '../text/analyze';
import type { TermCoverage } from './term-coverage';
import { namedTerms } from './text-features';
import type { ScoredCandidate } from './types';

export interface SubjectCheckOptions {
  /** How many candidates, in fused order, are read for the matching memories. */
  window: number;
  /** A candidate matches when it covers at least this share of the best candidate's coverage of the other words. */
  ratio: number;
  /**
   * The check runs only when the best candidate's statements hold at least this share of the
   * prompt's other informative words: a refusal needs a memory that clearly matches, not one that
   * shares "family" and "activities" with the prompt.
   */
  minShare: number;
}

/**
 * Measured on LoCoMo dev through the app path (`eval locomo --modes funnel`, the recall README's
 * "Refusal with evidence"): share of the 237 category-5 questions refused / answerable questions
 * (760, categories 1-4) this check refused, window 10, with the statement-by-statement reading of
 * who a memory is about (memorySubjects):
 *   ratio / minShare   0.25/0.5  0.5/0.5   0.5/0.55  0.5/0.6   0.5/0.65  0.5/0.7   0.5/0.8   0.6/0.6   0.75/0.7
 *   category 5         19.8 %    37.1 %    35.0 %    30.0 %    28.3 %    24.5 %    16.9 %    32.1 %    26.6 %
 *   refused by it      3         7         6         4         4         4         1         8         8
 * 0.5 / 0.6: the knee (below it every step costs two answerable questions, above it category 5 falls
 * at the same four). The relevance judgment refuses 7 answerable questions besides (0.92 %).
 * Before the statement reading (a turn about its speaker and whoever it names), the same day:
 * 0.5 / 0.7 refused 21.5 % of category 5 and 5 answerable questions, 0.5 / 0.6 25.3 % and 8,
 * 0.5 / 0.5 32.1 % and 11.
 * Since the question frames of `unframe` and the friend rule (namedOnlyAsFriendOwner), 2026-12-02:
 * category 5 30.0 %; this check refuses 2 answerable questions and the relevance judgment 5.
 */
export const DEFAULT_SUBJECT_CHECK: SubjectCheckOptions = { window: 10, ratio: 0.5, minShare: 0.6 };

export interface SubjectCheck {
  /** The persons the prompt names (as the vault spells them). */
  named: string[];
  /** Who the matching memories are about instead (empty when the check passed or did not run). */
  others: string[];
  /** Ids of the matching memories that were read. */
  matching: string[];
  /** True: every matching memory is about someone else. */
  mismatch: boolean;
}

const INTERJECTION =
  /(?:^|[.!?,;:]\s*|\b(?:hey|hi|hello|thanks|thank you|wow|oh|ooh|yeah|yes|yay|congrats|congratulations|sorry|aw+|ah|great|good|nice|cool|bye|dear|welcome|awesome|omg|haha|lol|hmm|so|well)[,!]?\s+)$/iu;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

/** `person` as a whole word, case-insensitive (one compiled expression per person, kept). */
const NAME_PATTERNS = new Map<string, RegExp>();
const MAX_NAME_PATTERNS = 4096;
function nameIn(person: string): RegExp {
  let pattern = NAME_PATTERNS.get(person);
  if (!pattern) {
    if (NAME_PATTERNS.size >= MAX_NAME_PATTERNS) NAME_PATTERNS.clear();
    pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escape(person)}(?![\\p{L}\\p{N}])`, 'giu');
    NAME_PATTERNS.set(person, pattern);
  }
  return pattern;
}

// Characters outside ASCII whose case folding is an ASCII letter: the two that `toLowerCase` leaves
// apart from it are the long s (ſ, folded to s) and the Kelvin sign (lowered to k, so safe).
const ASCII = /^[\p{ASCII}]*$/u;
const LONG_S = 'ſ';

/** A person's name as the checks compare it, made once per name (kept, as the expressions are). */
interface PersonName {
  lower: string;
  /** The lowered name's first word. */
  first: string;
  ascii: boolean;
}
const PERSON_NAMES = new Map<string, PersonName>();
function personName(person: string): PersonName {
  let name = PERSON_NAMES.get(person);
  if (!name) {
    if (PERSON_NAMES.size >= MAX_NAME_PATTERNS) PERSON_NAMES.clear();
    const lower = person.toLowerCase();
    name = { lower, first: lower.split(/\s+/u)[0]!, ascii: ASCII.test(person) };
    PERSON_NAMES.set(person, name);
  }
  return name;
}

/** Whether the text last asked about spells an s as ſ: the names of one text are asked in a row. */
let longSText = '';
let longSHeld = false;
function holdsLongS(text: string): boolean {
  if (text !== longSText) {
    longSText = text;
    longSHeld = text.includes(LONG_S);
  }
  return longSHeld;
}

/**
 * False only when `text` cannot hold `person` case-insensitively: for a name in ASCII, a match of
 * the case-insensitive expression is, lowered, the lowered name, unless the text spells an s as ſ.
 * `lowered` is `text.toLowerCase()` when the caller has it. Anything else is left to the expression.
 */
function mayHold(text: string, person: string, lowered?: string): boolean {
  const name = personName(person);
  if (!name.ascii || (lowered ?? text.toLowerCase()).includes(name.lower)) return true;
  return holdsLongS(text);
}

/** The start and end of each whole-word occurrence of `person` in `text`, case-insensitive. */
function occurrences(text: string, person: string, lowered?: string): [number, number][] {
  if (!mayHold(text, person, lowered)) return [];
  const pattern = nameIn(person);
  const out: [number, number][] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    out.push([m.index, m.index + m[0].length]);
    if (m[0].length === 0) pattern.lastIndex++;
  }
  pattern.lastIndex = 0;
  return out;
}

/** True when `text` names `person` other than as the one addressed (`lowered`: `text.toLowerCase()`, if known). */
export function namesAsSubject(text: string, person: string, lowered?: string): boolean {
  for (const [start, end] of occurrences(text, person, lowered)) {
    const before = text.slice(Math.max(0, start - 40), start);
    const after = text.slice(end, end + 2);
    const addressed = INTERJECTION.test(before) && /^(?:\s*[,!?.]|\s*$)/u.test(after);
    if (!addressed) return true;
  }
  return false;
}

/**
 * The text without its questions: "You play any instruments?" asks the other person and says nothing
 * about its speaker, so its words must not make it a matching memory.
 */
export function statements(text: string): string {
  return sentencesOf(text)
    .filter((s) => !s.endsWith('?'))
    .join(' ');
}

/** A memory's statements, each with its index terms (the statement-by-statement reading of memorySubjects). */
interface StatementTerms {
  said: string[];
  terms: string[][];
}

/**
 * Kept by text: the candidates of one ask are read twice (the subject boost, then the check), and an
 * ask's memories are mostly the last asks' (the package's token count keeps its memories' counts for
 * the same reason: core/text/token-count.ts).
 */
const STATEMENT_TERMS = new Map<string, StatementTerms>();
const HELD_TERMS = new Map<string, Set<string>>();
const MAX_KEPT_TEXTS = 1024;

function kept<T>(cache: Map<string, T>, text: string, make: (text: string) => T): T {
  let value = cache.get(text);
  if (value === undefined) {
    value = make(text);
    if (cache.size >= MAX_KEPT_TEXTS) cache.clear();
    cache.set(text, value);
  }
  return value;
}

function statementTerms(text: string): StatementTerms {
  return kept(STATEMENT_TERMS, text, (t) => {
    const said = sentencesOf(statements(t));
    return { said, terms: said.map((s) => analyze(s)) };
  });
}

/** The index terms of a memory's statements (checkSubject's share of the prompt's other words). */
function statementTermSet(text: string): Set<string> {
  return kept(HELD_TERMS, text, (t) => new Set(analyze(statements(t))));
}

function sentencesOf(text: string): string[] {
  return (text.match(/[^.!?\n]+(?:[.!?]+|\n|$)/gu) ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
}

// "us" is matched apart, case-sensitively: "the US" is a country, not the speaker.
const FIRST_PERSON_WORDS =
  /(?<![\p{L}\p{N}'’])(?:i|i['’](?:m|ve|ll|d)|me|my|mine|myself|we|we['’](?:re|ve|ll|d)|our|ours|ourselves)(?![\p{L}\p{N}'’])/iu;
const FIRST_PERSON_US = /(?<![\p{L}\p{N}'’])[Uu]s(?![\p{L}\p{N}'’])/u;
const FIRST_PERSON = { test: (sentence: string) => FIRST_PERSON_WORDS.test(sentence) || FIRST_PERSON_US.test(sentence) };
const SECOND_PERSON = /(?<![\p{L}\p{N}'’])(?:you|you['’](?:re|ve|ll|d)|your|yours|yourself|yourselves)(?![\p{L}\p{N}'’])/iu;
/** "Thank you", "you know", "see you": the second person of courtesy and filler, about nobody. */
const EMPTY_YOU = /\b(?:thank you|you know|see you|mind you)\b/giu;

const samePerson = (a: string, b: string) => {
  const x = personName(a);
  const y = personName(b);
  return x.lower === y.lower || x.first === y.lower || y.first === x.lower;
};

/**
 * Who one statement of a turn is about: the known persons it names other than as the one addressed,
 * its speaker when it speaks in the first person, the one addressed when it speaks in the second
 * ("Your store looks great" is about the listener), and `personless` (by default its speaker) when it
 * does none of these.
 */
export function statementSubjects(
  sentence: string,
  speaker: string,
  addressee: string | null,
  persons: readonly string[],
  personless: readonly string[] = [speaker],
): string[] {
  const lowered = sentence.toLowerCase();
  const out = persons.filter((p) => namesAsSubject(sentence, p, lowered));
  const first = FIRST_PERSON.test(sentence);
  const second = addressee !== null && speaksTo(sentence);
  if (first) out.push(speaker);
  if (second) out.push(addressee);
  if (out.length === 0) out.push(...personless);
  return [...new Set(out)];
}

const speaksTo = (sentence: string) => SECOND_PERSON.test(sentence.replace(EMPTY_YOU, ' '));

/** The person a turn speaks to: the one it addresses by name, else the only other speaker of its conversation. */
function addresseeOf(
  candidate: ScoredCandidate,
  speaker: string,
  persons: readonly string[],
  talkers: ReadonlyMap<string, Set<string>>,
): string | null {
  const text = candidate.record.text;
  const lowered = text.toLowerCase();
  const named = persons.find(
    (p) => !samePerson(p, speaker) && occurrences(text, p, lowered).length > 0 && !namesAsSubject(text, p, lowered),
  );
  if (named) return named;
  const others = [...(talkers.get(candidate.record.conversationId ?? '') ?? [])].filter((s) => !samePerson(s, speaker));
  return others.length === 1 ? others[0]! : null;
}

interface AboutContext {
  /** The prompt's informative words other than the names (index terms). */
  content: ReadonlySet<string>;
  /** Every speaker the candidates know, by full and first name. */
  persons: readonly string[];
  /** Speakers per conversation, among the candidates. */
  talkers: ReadonlyMap<string, Set<string>>;
}

/**
 * Who a matching memory is about. A turn of one speaker is read statement by statement: the
 * statements that hold the prompt's other words say who the match is about ("That charity race
 * sounds great! I'm so proud of you" is the listener's race, "I bet you never thought you'd get a
 * third turtle" the listener's turtle). A memory of several speakers or none (a note, a merged
 * chunk), or one whose statements hold none of those words, is about its speakers and whoever it
 * names other than as the one addressed.
 */
function memorySubjects(candidate: ScoredCandidate, ctx: AboutContext): string[] {
  const speakers = candidate.record.speakers ?? [];
  const read = speakers.length === 1 ? statementTerms(candidate.record.text) : null;
  const said = read?.said ?? [];
  const matched = said.filter((_, i) => read!.terms[i]!.some((t) => ctx.content.has(t)));
  if (speakers.length === 1 && matched.length > 0) {
    const speaker = speakers[0]!;
    const addressee = addresseeOf(candidate, speaker, ctx.persons, ctx.talkers);
    // A statement that names nobody ("That charity race sounds great!") is about the listener when
    // the turn talks to them and never of its speaker, else about the speaker.
    const personless = addressee !== null && said.some(speaksTo) && !said.some((s) => FIRST_PERSON.test(s)) ? addressee : speaker;
    return [...new Set(matched.flatMap((s) => statementSubjects(s, speaker, addressee, ctx.persons, [personless])))];
  }
  const text = candidate.record.text;
  const lowered = text.toLowerCase();
  return [...new Set([...speakers, ...ctx.persons.filter((p) => namesAsSubject(text, p, lowered))])];
}

/**
 * "Melanie's friend": the words for a friend of someone. In a vault of conversations between
 * friends the friend is most likely the other speaker, whose own turns say what the friend did ("I
 * applied to adoption agencies"), so a prompt that names Melanie only as the owner of a friend cannot
 * be refused for matching someone other than Melanie. Kin are not in it: "Melanie's grandma" and
 * "Melanie's son" are spoken of by Melanie ("my grandma"), so matches about another speaker's
 * grandma rightly refuse (LoCoMo dev, category 5: with kin and colleagues in this list, four such
 * refusals were lost for the one friend question gained).
 */
const FRIEND_OF = /^['’]s\s+(?:(?:best|close|good|old|new)\s+)?(?:friends?|buddy|buddies|pals?)(?![\p{L}\p{N}])/iu;

/**
 * True when every occurrence of `name` in `prompt` is the owner in "<name>'s friend". The subject
 * boost (aboutNamed) still reads such a prompt as naming `name`; only the refusal skips it.
 */
export function namedOnlyAsFriendOwner(prompt: string, name: string): boolean {
  const found = occurrences(prompt, name);
  return found.length > 0 && found.every(([, end]) => FRIEND_OF.test(prompt.slice(end)));
}

/** The persons among the prompt's named terms: those the vault knows as speakers (first names match). */
export function namedPersons(prompt: string, speakers: ReadonlySet<string>): string[] {
  const known = new Map<string, string>();
  for (const s of speakers) {
    known.set(s.toLowerCase(), s);
    known.set(s.toLowerCase().split(/\s+/u)[0]!, s.split(/\s+/u)[0]!);
  }
  const out = new Set<string>();
  for (const term of namedTerms(prompt)) {
    for (const word of term.split(/\s+/u)) {
      const bare = word.replace(/['’]s$/u, '').toLowerCase();
      const name = known.get(bare);
      if (name) out.add(name);
    }
  }
  return [...out];
}

// Roles, and the words transcripts use for their user (core/import/transcript.ts), name no person.
const ROLES = new Set(['user', 'assistant', 'system', 'tool', 'human', 'me', 'you']);

/** What reading who memories are about needs: the persons the prompt names and the prompt's other words. */
interface SubjectReading {
  named: string[];
  content: (TermCoverage['terms'][number] & { i: number })[];
  total: number;
  ctx: AboutContext;
}

function subjectReading(
  prompt: string,
  candidates: readonly ScoredCandidate[],
  judgment: Pick<TermCoverage, 'terms'>,
  friendOwners: 'count' | 'skip',
): SubjectReading | null {
  // A chat export's turns carry roles, not names: "What did the Assistant suggest?" names nobody.
  const speakers = new Set(candidates.flatMap((c) => c.record.speakers ?? []).filter((s) => !ROLES.has(s.toLowerCase())));
  const named = namedPersons(prompt, speakers).filter((p) => friendOwners === 'count' || !namedOnlyAsFriendOwner(prompt, p));
  if (named.length === 0) return null;
  const nameTerms = new Set(named.flatMap((n) => analyze(n)));
  const content = judgment.terms.map((t, i) => ({ ...t, i })).filter((t) => !nameTerms.has(t.term));
  const total = content.reduce((sum, t) => sum + t.idf, 0);
  if (total === 0) return null;
  const talkers = new Map<string, Set<string>>();
  for (const c of candidates)
    if (c.record.conversationId && c.record.speakers?.length === 1) {
      const set = talkers.get(c.record.conversationId) ?? new Set<string>();
      set.add(c.record.speakers[0]!);
      talkers.set(c.record.conversationId, set);
    }
  // Persons as a text may name them: full names and first names.
  const persons = [...new Set([...speakers, ...[...speakers].map((s) => s.split(/\s+/u)[0]!)])];
  return { named, content, total, ctx: { content: new Set(content.map((t) => t.near ?? t.term)), persons, talkers } };
}

/** Ids of the candidates about a person the prompt names (null: the prompt names no vault speaker). */
export function aboutNamed(
  prompt: string,
  candidates: readonly ScoredCandidate[],
  judgment: Pick<TermCoverage, 'terms'>,
): Set<string> | null {
  const reading = subjectReading(prompt, candidates, judgment, 'count');
  if (!reading) return null;
  const out = new Set<string>();
  for (const c of candidates)
    if (memorySubjects(c, reading.ctx).some((s) => reading.named.some((p) => samePerson(s, p)))) out.add(c.record.id);
  return out;
}

export function checkSubject(
  prompt: string,
  candidates: readonly ScoredCandidate[],
  judgment: Pick<TermCoverage, 'terms'>,
  options: SubjectCheckOptions = DEFAULT_SUBJECT_CHECK,
): SubjectCheck | null {
  const reading = subjectReading(prompt, candidates, judgment, 'skip');
  if (!reading) return null;
  const { named, content, total, ctx } = reading;
  const share = (c: ScoredCandidate) => {
    const own = statementTermSet(c.record.text);
    return content.filter((t) => own.has(t.near ?? t.term)).reduce((sum, t) => sum + t.idf, 0) / total;
  };
  const window = candidates.slice(0, options.window).map((c) => ({ c, share: share(c) }));
  const best = Math.max(0, ...window.map((w) => w.share));
  if (best === 0 || best < options.minShare) return null;
  const matching = window.filter((w) => w.share >= options.ratio * best).map((w) => w.c);
  const subjects = matching.flatMap((c) => memorySubjects(c, ctx));
  const mismatch = !subjects.some((s) => named.some((p) => samePerson(s, p)));
  const others = mismatch
    ? [...new Set(subjects.filter((s) => !subjects.some((t) => t !== s && t.length > s.length && samePerson(t, s))))]
    : [];
  return { named, others, matching: matching.map((c) => c.record.id), mismatch };
}
