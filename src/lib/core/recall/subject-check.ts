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
 * Measured on LoCoMo dev through the app path (recall README, "Refusal with evidence"): share of
 * category-5 questions refused / share of answerable questions (1-4) refused, window 10:
 *   ratio / minShare   0.25/0.5     0.5/0.5      0.5/0.6      0.5/0.7      0.75/0.7     1/0.7
 *   category 5         16.0 %       32.9 %       26.2 %       21.9 %       25.3 %       27.4 %
 *   false refusals     0.66 %       1.44 %       1.05 %       0.66 %       1.57 %       2.36 %
 * 0.5 / 0.7: the most category-5 refusals with false refusals under 1 %.
 */
export const DEFAULT_SUBJECT_CHECK: SubjectCheckOptions = { window: 10, ratio: 0.5, minShare: 0.7 };

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

/** True when `text` names `person` other than as the one addressed. */
export function namesAsSubject(text: string, person: string): boolean {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escape(person)}(?![\\p{L}\\p{N}])`, 'giu');
  for (const m of text.matchAll(pattern)) {
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 2);
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
  return (text.match(/[^.!?\n]+(?:[.!?]+|\n|$)/gu) ?? [])
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && !s.endsWith('?'))
    .join(' ');
}

function about(candidate: ScoredCandidate, person: string): boolean {
  const lower = person.toLowerCase();
  if ((candidate.record.speakers ?? []).some((s) => s.toLowerCase() === lower || s.toLowerCase().split(/\s+/u)[0] === lower)) return true;
  return namesAsSubject(candidate.record.text, person);
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

export function checkSubject(
  prompt: string,
  candidates: readonly ScoredCandidate[],
  judgment: Pick<TermCoverage, 'terms'>,
  options: SubjectCheckOptions = DEFAULT_SUBJECT_CHECK,
): SubjectCheck | null {
  const speakers = new Set(candidates.flatMap((c) => c.record.speakers ?? []));
  const named = namedPersons(prompt, speakers);
  if (named.length === 0) return null;
  const nameTerms = new Set(named.flatMap((n) => analyze(n)));
  const content = judgment.terms.map((t, i) => ({ ...t, i })).filter((t) => !nameTerms.has(t.term));
  const total = content.reduce((sum, t) => sum + t.idf, 0);
  if (total === 0) return null;
  const share = (c: ScoredCandidate) => {
    const own = new Set(analyze(statements(c.record.text)));
    return content.filter((t) => own.has(t.near ?? t.term)).reduce((sum, t) => sum + t.idf, 0) / total;
  };
  const window = candidates.slice(0, options.window).map((c) => ({ c, share: share(c) }));
  const best = Math.max(0, ...window.map((w) => w.share));
  if (best === 0 || best < options.minShare) return null;
  const matching = window.filter((w) => w.share >= options.ratio * best).map((w) => w.c);
  const mismatch = matching.every((c) => !named.some((p) => about(c, p)));
  const others = mismatch ? [...new Set(matching.flatMap((c) => c.record.speakers ?? []))].filter((s) => !named.includes(s)) : [];
  return { named, others, matching: matching.map((c) => c.record.id), mismatch };
}
