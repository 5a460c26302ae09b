/**
 * A generated vault of atomic notes with known near-duplicates and contradictions, for the cleaning
 * sweep's benchmark (`curate.sweep.100k.*`) and the LSH-versus-vector measurement (docs/CURATE.md).
 *
 * Base notes come from eight sentence templates filled from a generated vocabulary (4,000 nouns,
 * 300 names) and real verbs and adjectives, 6-9 content words each, so two base notes almost never
 * share more than a word or two.
 *
 * Planted near-duplicates (`dupShare` of all notes): the same statement reworded the way the
 * hand-labelled pairs in tests/unit/curate/duplicate-pairs.ts are: case and punctuation, a phrase
 * moved to the front, another inflection of the verb, function words swapped, and at most one
 * content word added (an adverb) or dropped (an adjective). One base in ten gets two rewordings.
 * Not planted: synonym swaps. A one-word synonym ("under" for "below") is lexically the same edit
 * as the labelled hard negatives ("rescue dog" / "rescue cat"), which no term- or lexical-vector
 * method can tell apart; that is the neural embedder's job (docs/CURATE.md).
 *
 * Planted contradictions (`contradictionShare`): a kept note and a later kept note that negates it
 * ("never"), swaps an adjective for its antonym, or changes its number.
 */
import { seededRng } from '../factories/rng';
import type { NoteRecord } from '../../src/lib/core/records';

export interface CurateCorpus {
  notes: NoteRecord[];
  /** Groups of ids that are near-duplicates of each other (the base first). */
  duplicateGroups: string[][];
  /** [older, newer] pairs that contradict each other. */
  contradictions: [string, string][];
}

export interface CorpusOptions {
  size: number;
  dupShare: number;
  contradictionShare: number;
  seed: number;
  now: number;
  /**
   * Share of the rewordings made harder (the LSH-versus-vector measurement only; the benchmark
   * plants none): a typo in one content word, or one adverb added and one adjective dropped.
   */
  hardShare?: number;
}

const DAY = 86_400_000;
const VERBS =
  'prune water store check plan book feed send build paint move clean fix test order ship cook visit call pack repair print mail sort label count wash'.split(
    ' ',
  );
const ADJECTIVES = 'quiet weekly large fresh green daily small heavy bright narrow wooden tiny spare shared'.split(' ');
const ANTONYM_ADJECTIVES: [string, string][] = [
  ['cheap', 'expensive'],
  ['local', 'remote'],
  ['public', 'private'],
  ['faster', 'slower'],
  ['encrypted', 'unencrypted'],
  ['online', 'offline'],
];
const ADVERBS = 'usually definitely probably mostly typically honestly'.split(' ');
const WEEKDAYS = 'Monday Tuesday Wednesday Thursday Friday Saturday Sunday'.split(' ');
const MONTHS = 'January February March April May June July August September October November December'.split(' ');
const UNITS = 'pm euros grams minutes litres kilometres'.split(' ');

function vocabulary(rng: () => number, size: number, capital: boolean): string[] {
  const consonants = 'bdfgklmnprstvz';
  const vowels = 'aeiou';
  const seen = new Set<string>();
  while (seen.size < size) {
    let word = '';
    const syllables = 2 + Math.floor(rng() * 2);
    for (let s = 0; s < syllables; s++)
      word += consonants[Math.floor(rng() * consonants.length)]! + vowels[Math.floor(rng() * vowels.length)]!;
    word += consonants[Math.floor(rng() * consonants.length)]!;
    seen.add(capital ? word[0]!.toUpperCase() + word.slice(1) : word);
  }
  return [...seen];
}

/** A base statement as parts the variants can rework. */
interface Statement {
  lead: string[];
  verb: { base: string; form: 's' | 'ed' | 'base' } | null;
  rest: string[];
  tail: string[];
  adjective: number | null;
  antonym: [string, string] | null;
  number: number | null;
  category: string;
}

export function generateCurateCorpus(options: CorpusOptions): CurateCorpus {
  const rng = seededRng(options.seed);
  const nouns = vocabulary(rng, 4000, false);
  const names = vocabulary(rng, 300, true);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
  const num = () => 2 + Math.floor(rng() * 97);

  function statement(): Statement {
    const t = Math.floor(rng() * 8);
    const anto = rng() < 0.3 ? pick(ANTONYM_ADJECTIVES) : null;
    const adj = anto ? anto[Math.floor(rng() * 2)]! : pick(ADJECTIVES);
    const base = { adjective: null, antonym: anto, number: null, category: 'Facts' } as const;
    switch (t) {
      case 0: {
        const n = num();
        return {
          ...base,
          lead: [pick(names)],
          verb: { base: pick(VERBS), form: 's' },
          rest: ['the', adj, pick(nouns), pick(nouns)],
          tail: ['every', pick(WEEKDAYS), 'at', String(n), pick(UNITS)],
          adjective: 3,
          number: n,
        };
      }
      case 1:
        return {
          ...base,
          lead: ['We', 'decided', 'to'],
          verb: { base: pick(VERBS), form: 'base' },
          rest: [pick(nouns), pick(nouns)],
          tail: ['for', 'the', adj, pick(nouns), pick(nouns)],
          adjective: 7,
          category: 'Decisions',
        };
      case 2: {
        const n = num();
        return {
          ...base,
          lead: ['Keep', 'the', pick(nouns), pick(nouns), 'under', String(n), pick(UNITS)],
          verb: null,
          rest: [],
          tail: ['for', pick(nouns), pick(nouns)],
          number: n,
          category: 'Constraints',
        };
      }
      case 3:
        return {
          ...base,
          lead: [pick(names), 'prefers', adj, pick(nouns)],
          verb: null,
          rest: ['over', pick(ADJECTIVES), pick(nouns)],
          tail: ['for', pick(nouns), pick(nouns)],
          adjective: 2,
        };
      case 4:
        return {
          ...base,
          lead: ['The', pick(nouns), pick(nouns)],
          verb: { base: pick(VERBS), form: 's' },
          rest: [adj, pick(nouns)],
          tail: ['twice', 'a', pick(['week', 'month', 'day'])],
          adjective: 4,
        };
      case 5:
        return {
          ...base,
          lead: ['Use'],
          verb: null,
          rest: [adj, pick(nouns), 'for', 'the', pick(nouns), pick(nouns)],
          tail: ['and', pick(nouns), 'for', pick(nouns)],
          adjective: 1,
          category: 'Decisions',
        };
      case 6:
        return {
          ...base,
          lead: [pick(names)],
          verb: { base: pick(VERBS), form: 'ed' },
          rest: ['the', adj, pick(nouns), pick(nouns), 'to', pick(names)],
          tail: ['in', pick(MONTHS)],
          adjective: 3,
        };
      default:
        return {
          ...base,
          lead: ['The', adj, pick(nouns)],
          verb: { base: pick(VERBS), form: 's' },
          rest: [pick(nouns), pick(nouns)],
          tail: ['before', 'the', pick(nouns), pick(nouns)],
          adjective: 1,
        };
    }
  }

  const inflect = (verb: NonNullable<Statement['verb']>): string =>
    verb.form === 'base'
      ? verb.base
      : verb.form === 's'
        ? /(s|x|sh|ch)$/u.test(verb.base)
          ? `${verb.base}es`
          : `${verb.base}s`
        : verb.base.endsWith('e')
          ? `${verb.base}d`
          : /^(plan|ship)$/u.test(verb.base)
            ? `${verb.base}${verb.base.slice(-1)}ed`
            : `${verb.base}ed`;
  const words = (s: Statement): string[] => [...s.lead, ...(s.verb ? [inflect(s.verb)] : []), ...s.rest, ...s.tail];
  const sentence = (parts: string[]): string => {
    const text = parts.join(' ');
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };

  function hard(s: Statement): string {
    const parts = words(s);
    if (rng() < 0.5) {
      // A typo: one letter of one long word dropped.
      const candidates = parts.map((w, i) => [w, i] as const).filter(([w]) => w.length >= 5);
      const [word, at] = candidates[Math.floor(rng() * candidates.length)]!;
      const cut = 1 + Math.floor(rng() * (word.length - 2));
      parts[at] = word.slice(0, cut) + word.slice(cut + 1);
      return sentence(parts);
    }
    const adjective = parts.findIndex((w) => ADJECTIVES.includes(w) || ANTONYM_ADJECTIVES.some((p) => p.includes(w)));
    const edited = adjective > 0 ? parts.filter((_, i) => i !== adjective) : parts;
    edited.splice(1, 0, pick(ADVERBS));
    return sentence(edited);
  }

  /** `second`: a second rewording of the same base changes only the surface (two added words would differ by two). */
  function reword(s: Statement, second = false): string {
    if (!second && options.hardShare && rng() < options.hardShare) return hard(s);
    let parts = words(s);
    const op = second ? 2 : Math.floor(rng() * 3);
    if (op === 0 && s.adjective !== null) {
      const flat = words(s);
      const adjective =
        s.lead.length + (s.verb ? 1 : 0) + s.rest.length > 0
          ? flat.findIndex((w) => ADJECTIVES.includes(w) || ANTONYM_ADJECTIVES.some((p) => p.includes(w)))
          : -1;
      if (adjective > 0) parts = flat.filter((_, i) => i !== adjective);
    } else if (op === 1) {
      // Before the tail, so a moved tail stays whole.
      parts.splice(1 + Math.floor(rng() * Math.max(1, parts.length - s.tail.length - 1)), 0, pick(ADVERBS));
    }
    const style = Math.floor(rng() * 4);
    if (style === 0 && s.verb && s.verb.form !== 'base') {
      const other: NonNullable<Statement['verb']> = { ...s.verb, form: s.verb.form === 's' ? 'ed' : 's' };
      parts = parts.map((w) => (w === inflect(s.verb!) ? inflect(other) : w));
    } else if (style === 1 && s.tail.length > 1) {
      const tail = parts.slice(parts.length - s.tail.length);
      parts = [
        ...tail,
        ...parts.slice(0, parts.length - s.tail.length).map((w, i) => (i === 0 && w !== w.toUpperCase() ? w.toLowerCase() : w)),
      ];
      return `${sentence(parts).replace(tail[tail.length - 1]!, `${tail[tail.length - 1]},`)}`;
    } else if (style === 2) {
      parts = parts.map((w) => (w === 'the' ? 'our' : w));
    }
    const text = sentence(parts);
    return rng() < 0.5 ? text.toLowerCase() : text.replace(/\.$/u, '!');
  }

  function contradict(s: Statement): string | null {
    const kind = Math.floor(rng() * 3);
    const parts = words(s);
    if (kind === 0 && s.antonym && parts.some((w) => s.antonym!.includes(w))) {
      const [a, b] = s.antonym;
      return sentence(parts.map((w) => (w === a ? b : w === b ? a : w)));
    }
    if (kind === 1 && s.number !== null) {
      const other = s.number + 1 + Math.floor(rng() * 50);
      return sentence(parts.map((w) => (w === String(s.number) ? String(other) : w)));
    }
    // Negation: "never" before the verb, or "Do not" before an imperative.
    if (s.verb) {
      const at = s.lead.length;
      return sentence([...parts.slice(0, at), 'never', ...parts.slice(at)]);
    }
    if (s.lead[0] === 'Keep' || s.lead[0] === 'Use') return sentence(['Do', 'not', s.lead[0].toLowerCase(), ...parts.slice(1)]);
    return sentence([...s.lead.slice(0, 1), 'never', ...parts.slice(1)]);
  }

  const notes: NoteRecord[] = [];
  const duplicateGroups: string[][] = [];
  const contradictions: [string, string][] = [];
  const dupTarget = Math.round(options.size * options.dupShare);
  const contraTarget = Math.round(options.size * options.contradictionShare);
  let id = 0;
  const make = (text: string, category: string, status: NoteRecord['status'], at: number): NoteRecord => ({
    id: `note-${(id++).toString(36).padStart(6, '0')}`,
    hlc: '',
    text,
    category,
    status,
    tier: 'engram',
    confidence: status === 'kept' ? 1 : 0.5,
    sourceMessageIds: [`msg-${id}`],
    conversationId: null,
    createdAt: at,
    updatedAt: at,
    keptAt: status === 'kept' ? at : null,
    supersedes: null,
    supersededBy: null,
    accessCount: 0,
    lastAccessedAt: null,
    pinned: false,
    contentHash: `h${id}`,
    flags: [],
  });
  const when = () => options.now - Math.floor(rng() * 600) * DAY;
  const status = (): NoteRecord['status'] => (rng() < 0.9 ? 'kept' : 'provisional');

  let dups = 0;
  let contras = 0;
  while (notes.length < options.size) {
    const s = statement();
    const base = make(sentence(words(s)), s.category, status(), when());
    notes.push(base);
    const room = options.size - notes.length;
    if (dups < dupTarget && room > 0 && rng() < (dupTarget - dups) / Math.max(1, options.size - notes.length - (contraTarget - contras))) {
      const group = [base.id];
      const copies = rng() < 0.1 && dupTarget - dups >= 2 && room >= 2 ? 2 : 1;
      for (let c = 0; c < copies; c++) {
        const copy = make(reword(s, c > 0), s.category, status(), when());
        notes.push(copy);
        group.push(copy.id);
        dups++;
      }
      duplicateGroups.push(group);
    } else if (contras < contraTarget && room > 0 && rng() < 0.5) {
      const text = contradict(s);
      if (text) {
        const kept = { ...base, status: 'kept' as const, keptAt: base.createdAt - 30 * DAY, createdAt: base.createdAt - 30 * DAY };
        notes[notes.length - 1] = kept;
        const newer = make(text, s.category, 'kept', base.createdAt);
        notes.push(newer);
        contradictions.push([kept.id, newer.id]);
        contras++;
      }
    }
  }
  return { notes, duplicateGroups, contradictions };
}

/** Recall and precision of predicted pairs against the planted groups (every pair within a group). */
export function pairScores(
  predictedGroups: readonly (readonly string[])[],
  truthGroups: readonly (readonly string[])[],
): { recall: number; precision: number; truePairs: number; predictedPairs: number } {
  const pairs = (groups: readonly (readonly string[])[]) => {
    const out = new Set<string>();
    for (const g of groups) {
      const sorted = [...g].sort();
      for (let i = 0; i < sorted.length; i++) for (let j = i + 1; j < sorted.length; j++) out.add(`${sorted[i]}|${sorted[j]}`);
    }
    return out;
  };
  const truth = pairs(truthGroups);
  const predicted = pairs(predictedGroups);
  let hit = 0;
  for (const p of predicted) if (truth.has(p)) hit++;
  return {
    recall: truth.size ? hit / truth.size : 1,
    precision: predicted.size ? hit / predicted.size : 1,
    truePairs: truth.size,
    predictedPairs: predicted.size,
  };
}
