/**
 * A subject-relation-object triple of an extracted unit, as core/graph/triples.ts writes it (that
 * module loads compromise; this one is what readers need: the shape, the recipe and the line).
 */

/** The version of what `extractTriples` gives: stored rows of an older recipe are written again. */
export const TRIPLE_RECIPE = 'triples-2';

export interface Triple {
  /** Entity key of the subject; null: the person of a chat export, or a common noun phrase. */
  subject: string | null;
  /** The subject as the unit wrote it, a first person resolved ("Caroline", "My cat Luna", "You"). */
  subjectText: string;
  /** The verb phrase, lowercased ("went", "decided to use", "is not going to use"). */
  relation: string;
  /** The predicate's first clause, as written, at most twelve words. */
  object: string;
  /** Keys of the linked entities the subject and object name (the subject's first). */
  entities: string[];
  /**
   * The relation's and object's content words, stemmed, an irregular verb at its base first ("went"
   * -> "go"): what a prompt's words are matched with (services/index/triples.ts, `triplesFor`).
   */
  terms: string[];
  negated: boolean;
}

/** One line a person reads: "Caroline · went · to a LGBTQ support group yesterday". */
export function tripleLine(triple: Pick<Triple, 'subjectText' | 'relation' | 'object'>): string {
  return `${triple.subjectText} · ${triple.relation} · ${triple.object}`;
}
