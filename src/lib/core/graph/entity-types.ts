/**
 * What kind of thing each linked name is (issue 12, criterion 2: people, places, organisations,
 * dates), read from its sentence by compromise's part-of-speech tagger (the maintained `compromise`
 * package, MIT). The entity linker (entity-linker.ts) finds names without a model but cannot tell a
 * city from a person, nor a month or a capitalized verb ("Ask the roofer ...") from a name; the
 * tagger's tags can. Measured against 190 names labelled blind (tests/bench/entity-types.ts,
 * src/lib/services/recall/README.md): the linker alone types 31 % of them right, with compromise 63 %;
 * wink-nlp's English model has no person, place or organisation types (33 %).
 *
 * A transcript's speakers stay people and quoted titles stay titles, whatever the tagger says. A name
 * the tagger reads as a verb, an adjective or an interjection is no name (null). The rest it leaves
 * as 'name': products, projects and the vault's own words have no tag of their own.
 */
import nlp from 'compromise';
import type { EntityMention } from './entity-linker';

export type EntityType = 'person' | 'place' | 'organisation' | 'date' | 'title' | 'name';

/** Longest text typed at once (a long message's first part holds most of its names). */
const MAX_CHARS = 4_000;

interface TaggedTerm {
  text: string;
  tags: string[];
}

const norm = (s: string): string =>
  s
    .toLowerCase()
    .replace(/['’]s$/u, '')
    .replace(/[^\p{L}\p{N} ]/gu, '');

function typeOfTags(tags: ReadonlySet<string>): EntityType | null {
  if (tags.has('Person') || tags.has('FirstName') || tags.has('LastName')) return 'person';
  if (tags.has('Place') || tags.has('Country') || tags.has('City') || tags.has('Region')) return 'place';
  if (tags.has('Organization') || tags.has('SportsTeam')) return 'organisation';
  if (tags.has('Month') || tags.has('WeekDay') || tags.has('Holiday') || tags.has('Date')) return 'date';
  if (!tags.has('ProperNoun') && (tags.has('Verb') || tags.has('Expression') || tags.has('Adverb') || tags.has('Adjective'))) return null;
  return 'name';
}

/**
 * The type of each mention (by key) as its first occurrence in `text` is tagged; null: not a name.
 * Mentions the tagger cannot find in the text keep the linker's reading.
 */
export function typeMentions(text: string, mentions: readonly EntityMention[]): Map<string, EntityType | null> {
  const out = new Map<string, EntityType | null>();
  const pending = mentions.filter((m) => {
    if (m.kind === 'person' || m.kind === 'title') out.set(m.key, m.kind);
    return m.kind === 'name';
  });
  if (pending.length === 0) return out;
  const terms = (nlp(text.slice(0, MAX_CHARS)).terms().json() as { terms: TaggedTerm[] }[]).map((t) => t.terms[0]!);
  const words = terms.map((t) => norm(t.text));
  for (const mention of pending) {
    const want = norm(mention.name).split(' ').filter(Boolean);
    let type: EntityType | null = 'name';
    for (let i = 0; want.length > 0 && i + want.length <= words.length; i++) {
      if (want.every((w, j) => words[i + j] === w)) {
        type = typeOfTags(new Set(terms.slice(i, i + want.length).flatMap((t) => t.tags)));
        break;
      }
    }
    out.set(mention.key, type);
  }
  return out;
}

/** How a type reads on the screen. */
export const ENTITY_TYPE_LABEL: Record<EntityType, string> = {
  person: 'Person',
  place: 'Place',
  organisation: 'Organisation',
  date: 'Date',
  title: 'Title',
  name: 'Name',
};
