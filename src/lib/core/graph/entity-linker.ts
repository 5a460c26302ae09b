/**
 * The entity linker: the people, places, organisations, projects and titles a text names, without a
 * model. A transcript's speakers are people by definition; in the text, a proper noun is a run of
 * capitalized words that is not the opening word of a sentence (unless the run is longer than one
 * word), and a quoted title ("The Four Seasons"). First-person turns are linked to their speaker:
 * "I went to the race" is a mention of whoever said it. Names are keyed case-insensitively and a
 * possessive ("Caroline's") is its name. Code (fenced blocks, inline spans) names nothing. What a vault names once may be noise; the graph keeps an
 * entity once the vault names it twice or it speaks (entity-graph.ts).
 */
import { STOP_WORDS } from '../recall/text-features';

export interface EntityMention {
  /** Lowercased key ("caroline", "lisbon", "the four seasons"). */
  key: string;
  /** As first written. */
  name: string;
  kind: 'person' | 'name' | 'title';
  /**
   * A single capitalized word opening a sentence ("Comet ran ..."): a name only if the vault also
   * writes it inside a sentence somewhere (the graph decides, entity-graph.ts).
   */
  opening?: boolean;
}

/** Role names of unnamed transcripts: not people of the vault. */
const ROLES = new Set(['user', 'assistant', 'system', 'tool', 'you', 'me']);

/** Capitalized words that open questions and sentences or are pronouns, never names on their own. */
const NOT_NAMES = new Set([
  ...STOP_WORDS,
  'hey',
  'hi',
  'hello',
  'thanks',
  'thank',
  'wow',
  'oh',
  'yeah',
  'yes',
  'no',
  'sure',
  'great',
  'awesome',
  'cool',
  'nice',
  'congrats',
  'sorry',
  'haha',
  'lol',
  'omg',
  'ok',
  'okay',
  'bye',
  'good',
  'glad',
  'definitely',
  'totally',
  'absolutely',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'today',
  'yesterday',
  'tomorrow',
  'tonight',
]);

/** Not a name: a listed word, or "I" with a contraction ("I'll", "I'm", "I've", "I'd"), capitalized wherever it stands. */
const notName = (word: string): boolean => NOT_NAMES.has(word) || /^i['’]\p{L}{1,2}$/u.test(word);

/**
 * Code is no place for names: SQL keywords ("CREATE INDEX", "VARCHAR"), constants and class names in
 * a fenced block or an inline span are capitalized without naming anyone. Both are blanked (same
 * length, so positions hold) before names are looked for.
 */
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]*`/gu;

/** `text` with its code blanked (same length, line breaks kept). */
export const blankCode = (text: string): string => text.replace(CODE, (code) => code.replace(/[^\n]/gu, ' '));

const RUN = /[\p{Lu}][\p{L}\p{N}'’&.-]*(?:\s+(?:of|de|la|von|van|der|the)?\s*[\p{Lu}][\p{L}\p{N}'’&.-]*)*/gu;
const QUOTED = /["“]([^"”\n]{3,60})["”]/gu;

function clean(name: string): string {
  return name
    .replace(/['’]s$/u, '')
    .replace(/[.,'’&-]+$/u, '')
    .trim();
}

/**
 * True when the match opens a sentence: start of text, after . ! ? : or a line break, or after a
 * line's list marker or emphasis ("- Consider", "2. **Use**", "## Setup").
 */
function opensSentence(text: string, index: number): boolean {
  const before = text.slice(0, index).trimEnd();
  return before.length === 0 || /[.!?:\n"“(]$/u.test(before) || /(?:^|\n)[ \t>]*(?:[-*+•#]+|\d+[.)])?[ \t*_]*$/u.test(text.slice(0, index));
}

export function linkEntities(text: string, speaker: string | null = null): EntityMention[] {
  const out = new Map<string, EntityMention>();
  const add = (name: string, kind: EntityMention['kind'], opening = false) => {
    const cleaned = clean(name);
    const key = cleaned.toLowerCase();
    if (key.length < 2 || notName(key) || ROLES.has(key) || /^\d+$/u.test(key)) return;
    const known = out.get(key);
    if (!known) out.set(key, { key, name: cleaned, kind, ...(opening ? { opening } : {}) });
    else if (!opening && known.opening) out.set(key, { key, name: known.name, kind: known.kind });
  };
  if (speaker && !ROLES.has(speaker.trim().toLowerCase())) add(speaker.trim(), 'person');
  const prose = blankCode(text);
  for (const m of prose.matchAll(QUOTED)) add(m[1]!, 'title');
  // Quoted titles are linked whole; their words are not names of their own.
  const unquoted = prose.replace(QUOTED, (q) => ' '.repeat(q.length));
  for (const m of unquoted.matchAll(RUN)) {
    const words = clean(m[0]).split(/\s+/u);
    while (words.length > 0 && notName(words[0]!.toLowerCase())) words.shift();
    while (words.length > 0 && notName(words[words.length - 1]!.toLowerCase())) words.pop();
    if (words.length === 0) continue;
    const first = m[0].indexOf(words[0]!);
    add(words.join(' '), 'name', words.length === 1 && opensSentence(unquoted, m.index + first));
  }
  return [...out.values()];
}
