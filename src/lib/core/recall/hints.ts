/**
 * Prospective indexing (issue 12, criterion 4): the questions a memory answers, written down when it
 * is indexed, so a prompt phrased as a question can meet them. Without a model they come from rules
 * over the document's extracted units and sentences:
 *
 * - the subject: a named speaker's first person becomes the name ("I went" -> "Caroline went"), so
 *   "When did Caroline ..." meets a turn that never names her;
 * - the verb: an irregular form gains its base form ("went" -> "went go", core/text/verb-base.ts),
 *   the form a question asks with ("did she go");
 * - the question's own words by what the unit is: a decision is what someone decided, chose or
 *   picked; a constraint a limit or requirement; an action item what someone needs or plans to do; an
 *   open question what is unresolved; a liking someone's favourite; a dated event asks "when".
 *
 * Each hint is one unit or sentence, so in their own keyword index (hint-index) a hint that holds
 * most of a prompt's words ranks its parent high even when the parent's own text is a long window.
 * A hint hit lifts its parent by max, never additively (retrieve.ts).
 */
import type { Role } from '../records';
import { stem } from '../text/analyze';
import { isTemporalAnchor } from './dampening';
import { verbBase } from '../text/verb-base';
import { proseSentences } from '../text/sentences';
import { HINTS_PER_DOC } from './hint-limits';

export { HINTS_PER_DOC };

/** Part of what a hint index was built by: bump with any change to the rules' output. */
export const HINT_RECIPE = 'hint-1';

/** At most this many words of a unit go into its hint. */
const MAX_HINT_WORDS = 40;
/** A sentence with fewer content-bearing words than this says too little to ask about. */
const MIN_WORDS = 3;

/** An extracted unit of the document: its text and its category (a note's; null for a bare sentence). */
export interface HintUnit {
  text: string;
  category: string | null;
}

export interface HintSource {
  /** The document's own text (a chunk's turn, a note's text). */
  text: string;
  /** Who said it when that is a name ("Caroline"); null for a role ("user") or a note. */
  speaker: string | null;
  /** A note's category (its own unit); absent for chunks. */
  category?: string | null;
  /** Units extracted from the document's messages (candidates and kept notes), best first. */
  units?: readonly HintUnit[];
  /** The source conversation's or document's title: every hint ends with it (what the unit is about). */
  title?: string | null;
}

/** A chunk's speaker is a transcript's name for the turn, else the message's role (services/index/candidates.ts). */
const ROLES: ReadonlySet<string> = new Set<Role>(['user', 'assistant', 'system', 'tool']);

/** A speaker worth naming in a question: a name, not a role. */
export function namedSpeaker(speaker: string | null | undefined): string | null {
  const s = speaker?.trim();
  return s && !ROLES.has(s.toLowerCase()) && /\p{Lu}/u.test(s[0]!) ? s : null;
}

const FIRST_PERSON = /^(?:i|me|myself|we|us|ourselves|i'm|i’m|im|i've|i’ve|i'd|i’d|i'll|i’ll|we're|we’re|we've|we’ve|we'll|we’ll)$/iu;
const FIRST_POSSESSIVE = /^(?:my|mine|our|ours)$/iu;
const LIKING = /\b(?:lov(?:e|ed|es|ing)|lik(?:e|ed|es)|enjoy(?:s|ed|ing)?|prefer(?:s|red)?|favou?rite|adore[sd]?|fan of|passionate)\b/iu;

/** The question's words by category (the eight of core/extract/units.ts); keys are lowercased. */
const LEADS: Record<string, (who: string) => string> = {
  // The ways a person asks after a choice (the extractor's decision cues, core/extract/cues.ts, as questions).
  decisions: (who) => `What did ${who} decide, choose, pick, settle on, go with, opt for, agree on or end up with:`,
  constraints: (who) => `What constraint, limit, maximum, minimum, deadline or requirement does ${who} have, what is allowed:`,
  'action items': (who) => `What does ${who} need, plan or promise to do, what task:`,
  'open questions': (who) => `What is still open, undecided or unresolved for ${who}:`,
  ideas: (who) => `What idea did ${who} have:`,
};

function lead(unit: HintUnit, who: string): string {
  const byCategory = unit.category ? LEADS[unit.category.toLowerCase()] : undefined;
  if (byCategory) return byCategory(who);
  if (LIKING.test(unit.text)) return `What is ${who === 'I' ? 'my' : 'their'} favorite, what does ${who} like:`;
  if (isTemporalAnchor(unit.text)) return `When did ${who}:`;
  return `What did ${who} say about:`;
}

/** The unit's words with the speaker's name for the first person and base forms beside irregular verbs. */
function rewrite(text: string, speaker: string | null): { text: string; firstPerson: boolean; words: number } {
  const tokens = text.split(/\s+/u).filter(Boolean).slice(0, MAX_HINT_WORDS);
  let firstPerson = false;
  let words = 0;
  const out: string[] = [];
  for (const token of tokens) {
    const core = token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}'’]+$/gu, '');
    if (core.length === 0) continue;
    words++;
    if (FIRST_PERSON.test(core) || FIRST_POSSESSIVE.test(core)) {
      firstPerson = true;
      if (speaker) {
        out.push(FIRST_POSSESSIVE.test(core) ? `${speaker}'s` : speaker);
        continue;
      }
    }
    out.push(core);
    // Only a base the stemmer would not reach ("went" -> "go", not "planning" -> "plan": a repeat would count twice).
    const base = verbBase(core);
    if (base && stem(base) !== stem(core.toLowerCase())) out.push(base);
  }
  return { text: out.join(' '), firstPerson, words };
}

/** One hint: the unit's question lead, its rewritten words and the title; null when the unit says too little. */
function hintOf(unit: HintUnit, speaker: string | null, title: string): string | null {
  const trimmed = unit.text.trim();
  if (trimmed.endsWith('?') && !unit.category) return null; // a question asked is not what the memory answers
  const r = rewrite(trimmed, speaker);
  if (r.words < MIN_WORDS) return null;
  // The name stands once in a hint: a short hint holding it twice would match any prompt that names them.
  const who = r.firstPerson && speaker ? 'they' : r.firstPerson ? 'I' : 'they';
  return `${lead(unit, who)} ${r.text}${title ? ` (${title})` : ''}?`;
}

/**
 * The document's hints (at most HINTS_PER_DOC, distinct): its extracted units first (a note is its
 * own unit), then its sentences that carry a cue (a date, a liking), then the rest in order.
 */
export function ruleHints(source: HintSource): string[] {
  const speaker = namedSpeaker(source.speaker);
  const units: HintUnit[] = [];
  if (source.category) units.push({ text: source.text, category: source.category });
  units.push(...(source.units ?? []));
  if (!source.category) {
    const sentences = proseSentences(source.text);
    const cued = sentences.filter((s) => isTemporalAnchor(s) || LIKING.test(s));
    const rest = sentences.filter((s) => !cued.includes(s));
    units.push(...[...cued, ...rest].map((text) => ({ text, category: null })));
  }
  const out: string[] = [];
  const seen = new Set<string>();
  for (const unit of units) {
    if (out.length >= HINTS_PER_DOC) break;
    const key = unit.text.trim().toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const hint = hintOf(unit, speaker, source.title?.trim().slice(0, 80) ?? '');
    if (hint) out.push(hint);
  }
  return out;
}
