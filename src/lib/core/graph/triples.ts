/**
 * Subject-relation-object triples of an extracted unit (issue 12, criterion 2: "subject-relation-object
 * triples from extraction"), without a model: compromise's sentence parser (the maintained
 * `compromise` package, MIT, already the entity types' tagger) splits each sentence into its subject,
 * verb phrase and predicate; this module resolves the subject and keeps the first clause of the
 * predicate as the object.
 *
 * - A first-person subject ("I", "I'm", "we", "my ...", "Let's ...") is the unit's speaker: the
 *   speaker's name in a named transcript, the person themself (no entity, written "You") in a chat
 *   export, where the user is unnamed.
 * - A subject naming a linked entity ("My cat Luna", "Caroline's kids") is that entity, written as
 *   the unit wrote it.
 * - Other pronouns ("she", "it", "they", "you", "this") are not resolved (no coreference here): the
 *   sentence gives no triple. A common noun phrase ("the roofer") stays a subject with no entity.
 * - Questions, bracketed photo captions and code give none, and so does a sentence that names no
 *   entity (subject or object): the triples are found by their entities, so one with none would never be read.
 *
 * The triple's `entities` are the linked names in its subject and object (entity-linker.ts), by key:
 * what the triples table is searched by (services/index/triples.ts). Measured on the LoCoMo dev
 * split's extracted units (services/recall/README.md, "Triples").
 *
 * compromise weighs about 100 KB gzip: this module is imported on demand (services/index/triples.ts),
 * by whatever writes triples, so the index worker's first load does not carry it (docs/BUNDLE.md).
 * The triple's shape, the recipe and its line are in triple.ts.
 */
import nlp from 'compromise';
import { blankCode, linkEntities } from './entity-linker';
import { stemmer } from 'stemmer';
import { contentWords } from '../recall/text-features';
import { verbBase } from '../text/verb-base';
import type { Triple } from './triple';

const MAX_OBJECT_WORDS = 12;
/** Longest unit read (a unit is a sentence or two; a longer text is a resource, not a unit). */
const MAX_CHARS = 1_200;

const FIRST_PERSON = /^(?:i|i'm|i've|i'd|i'll|we|we're|we've|we'd|we'll|me|us|myself|ourselves)$/u;
const FIRST_PERSON_OWNER = /^(?:my|our)\s/u;
const UNRESOLVED =
  /^(?:your|his|her|their|its|he|she|it|they|you|this|that|these|those|there|here|it's|that's|there's|here's|he's|she's|they're|you're|who|what|which|everyone|everybody|someone|somebody|nobody|one)(?:\s|$)/u;
const NOT_NAME = new Set(['Plural', 'Activity', 'Pronoun', 'Gerund', 'Determiner']);
const NOT_SUBJECT = new Set(['Adverb', 'Preposition', 'Conjunction', 'Adjective', 'Verb', 'Expression', 'QuestionWord']);
const ROLE_NAMES: Record<string, string | null> = {
  user: null,
  you: null,
  me: null,
  assistant: 'Assistant',
  system: 'Assistant',
  tool: 'Assistant',
};
const LET_US = /^let['’]?s$/u;
const NEGATION = /\b(?:not|never|no longer)\b|n['’]t\b/u;
/** Where the object's first clause ends. */
const CLAUSE_END = /,(?!\d)|[;:()!?]|\s[-–—]\s|\s(?:and|but|because|since|so|as|which|while|although|though|when|where|if|until|or)\s/iu;

interface ParsedSentence {
  text: string;
  sentence?: { subject?: string; verb?: string; predicate?: string };
  terms?: { text: string; tags: string[] }[];
}

/** A subject contracted with its auxiliary ("I'm", "we've"): the auxiliary opens the relation. */
const CONTRACTED: Record<string, string> = { m: 'am', re: 'are', s: 'is', ve: 'have', d: 'would', ll: 'will' };

const squash = (s: string): string => s.replace(/\s+/gu, ' ').trim();

/** The sentence's words from `from` on, at most `MAX_OBJECT_WORDS`, up to the first clause's end. */
function firstClause(text: string): string {
  const end = CLAUSE_END.exec(text);
  const clause = squash(end ? text.slice(0, end.index) : text).replace(/[.!?"'”’]+$/u, '');
  return clause.split(' ').slice(0, MAX_OBJECT_WORDS).join(' ');
}

/**
 * The span of `part` (compromise's normalized words: lowercased, punctuation dropped) in `original`,
 * from `from` on, or null: its words in order with anything but letters and digits between them.
 */
function spanOf(original: string, part: string, from = 0): { start: number; end: number } | null {
  const words = part.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return null;
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')).join('[^\\p{L}\\p{N}]+'), 'giu');
  pattern.lastIndex = from;
  const match = pattern.exec(original);
  return match ? { start: match.index, end: match.index + match[0].length } : null;
}

export function extractTriples(text: string, speaker: string | null = null): Triple[] {
  const prose = blankCode(text.slice(0, MAX_CHARS))
    // Photo captions of a transcript ("[shares a photo: ...]") describe an image, not what was said.
    .replace(/\[[^\]]*\]?/gu, ' ')
    .replace(/^[^[]*\]/u, ' ');
  // The user of a chat export is unnamed ("You"); the assistant speaks as "Assistant", no entity.
  const role = speaker?.trim().toLowerCase() ?? '';
  const speakerName = ROLE_NAMES[role] !== undefined ? ROLE_NAMES[role] : speaker?.trim() || null;
  const speakerKey = speakerName && ROLE_NAMES[role] === undefined ? (linkEntities('', speakerName)[0]?.key ?? null) : null;
  const out: Triple[] = [];
  // A triple is found by the entities it names: a unit that names none, said by no named speaker,
  // gives none worth keeping, and is not parsed (most units of a chat export, where the user is unnamed).
  if (speakerKey === null && linkEntities(prose).length === 0) return [];
  for (const parsed of nlp(prose).sentences().json() as ParsedSentence[]) {
    const original = squash(parsed.text ?? '');
    if (!original || /\?\s*["'”’]?$/u.test(original)) continue;
    let subject = squash(parsed.sentence?.subject ?? '');
    let verb = squash(parsed.sentence?.verb ?? '');
    let predicate = squash(parsed.sentence?.predicate ?? '');
    if (LET_US.test(verb) || (!subject && LET_US.test(predicate.split(' ')[0] ?? ''))) {
      // "Let's go with SQLite": the speaker's choice; compromise reads "let's" as the verb.
      const rest = (LET_US.test(verb) ? predicate : predicate.split(' ').slice(1).join(' ')).split(' ');
      subject = 'we';
      verb = `let's ${rest[0] ?? ''}`.trim();
      predicate = rest.slice(1).join(' ');
    }
    if (!subject || !verb || !predicate) continue;
    const first = parsed.terms?.[0];
    // An adverb, a connective or an adjective read as the subject ("Recently, I had ...", "Since I
    // started ...", "Good on you ..."), and a name addressed ("Caroline, that sounds ..."): no subject.
    if (first && !subject.includes(' ') && first.text.toLowerCase().startsWith(subject) && first.tags.some((tag) => NOT_SUBJECT.has(tag)))
      continue;
    if (/^\p{Lu}[\p{L}'’-]*,\s/u.test(original) && !FIRST_PERSON.test(subject)) continue;
    const subjectSpan = spanOf(original, subject);
    const verbSpan = spanOf(original, verb, subjectSpan?.end ?? 0);
    const subjectText = subjectSpan ? original.slice(subjectSpan.start, subjectSpan.end) : subject;
    const objectSource = verbSpan ? original.slice(verbSpan.end) : predicate;
    const object = firstClause(objectSource);
    if (!object) continue;
    // A capitalized word opening the sentence may be a name ("Melanie painted ...", "Miso gets ...")
    // unless the tagger reads it as a plural, an activity or a pronoun ("Pets are ...",
    // "Transitioning was ..."); adverbs and connectives were left out above.
    const proper = (name: string) =>
      (parsed.terms ?? []).some(
        (t) => t.text.replace(/['’]s$/u, '') === name && (t.tags.includes('ProperNoun') || !t.tags.some((tag) => NOT_NAME.has(tag))),
      );
    const named = linkEntities(subjectText).filter((m) => !m.opening || proper(m.name));
    const contraction = /^(\S+)['’](m|re|s|ve|d|ll)$/u.exec(subject);
    let subjectKey: string | null;
    let written: string;
    let relation = verb;
    if (FIRST_PERSON.test(subject)) {
      subjectKey = speakerKey;
      written = speakerName ?? 'You';
      if (contraction) relation = `${CONTRACTED[contraction[2]!]} ${verb}`;
    } else if (named.length > 0) {
      subjectKey = named[0]!.key;
      written = subjectText;
    } else if (FIRST_PERSON_OWNER.test(subject)) {
      subjectKey = speakerKey;
      written = `${speakerName ? `${speakerName}'s` : 'Your'} ${subjectText.split(/\s+/u).slice(1).join(' ')}`;
    } else if (UNRESOLVED.test(subject) || contraction) {
      continue;
    } else {
      subjectKey = null;
      written = subjectText;
    }
    const entities = [...new Set([...(subjectKey ? [subjectKey] : []), ...linkEntities(object).map((m) => m.key)])];
    const terms = [...new Set(contentWords(`${relation} ${object}`).map((w) => stemmer(verbBase(w) ?? w.replace(/'s$/u, ''))))];
    if (entities.length === 0) continue;
    out.push({ subject: subjectKey, subjectText: written, relation, object, entities, terms, negated: NEGATION.test(relation) });
  }
  return out;
}
