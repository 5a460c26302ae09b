import type { ExtractionRun } from './driver';
import type { LocomoSession } from './locomo';
import { CATEGORIES, wordCount, type CandidateUnit, type Category } from './units';
import { contentWordSet, tokens } from './words';

/**
 * Extraction quality against LoCoMo's per-session `observation` facts.
 *
 * Coverage rule (exact). For a gold fact g with evidence turns E(g):
 *   C(x) = the set of Porter-stemmed content words of x: lowercased word tokens, stop words and
 *          negators removed, tokens of one character removed, and the session's speaker names
 *          removed (the cited turn already says who; gold facts name the speaker, turns say "I").
 *   g is covered when some accepted unit u that cites a turn in E(g) has
 *          |C(g) ∩ C(u)| >= max(MIN_SHARED_WORDS, ceil(MIN_SHARED_SHARE * |C(g)|)).
 *   A gold fact with fewer content words than MIN_SHARED_WORDS needs all of them.
 * One unit must carry the overlap on its own: many small units from a turn do not add up.
 *
 * validatorPassRate = units proposed by the extractor that passed the validator with no repair,
 * over all units proposed. meanWordsPerUnit is over accepted units.
 */
export const MIN_SHARED_WORDS = 2;
export const MIN_SHARED_SHARE = 1 / 3;

export const COVERAGE_RULE =
  `A gold fact is covered when one accepted unit citing one of its evidence turns shares at least ` +
  `max(${MIN_SHARED_WORDS}, ceil(${MIN_SHARED_SHARE.toFixed(3)} x n)) of the fact's n stemmed content words ` +
  `(stop words and speaker names removed).`;

export interface ObservationEvalReport {
  extractor: string;
  sessions: number;
  goldFacts: number;
  coveredFacts: number;
  coverage: number;
  /** Same rule with half of the fact's content words required. */
  strictCoverage: number;
  /** The rule applied to the whole evidence turns (no word limit): what rephrasing the turns can reach at best. */
  turnCeiling: number;
  units: number;
  validatorPassRate: number;
  acceptedRate: number;
  meanWordsPerUnit: number;
  byCategory: Record<string, { units: number; coveringUnits: number }>;
  rule: string;
}

export type SessionExtractor = (session: LocomoSession) => Promise<ExtractionRun>;

/** Share used for `strictCoverage`, reported beside the main figure to show how much the bar matters. */
export const STRICT_SHARED_SHARE = 1 / 2;

export function requiredShared(goldSize: number, share = MIN_SHARED_SHARE): number {
  return Math.min(goldSize, Math.max(MIN_SHARED_WORDS, Math.ceil(share * goldSize)));
}

function shared(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const term of a) if (b.has(term)) n += 1;
  return n;
}

/** The unit that covers the gold fact best (most shared words), if any reaches the rule's bar. */
export function coveringUnit(
  gold: { text: string; evidence: readonly string[] },
  units: readonly CandidateUnit[],
  speakerNames: ReadonlySet<string>,
  share = MIN_SHARED_SHARE,
): CandidateUnit | null {
  const goldWords = contentWordSet(gold.text, speakerNames);
  if (goldWords.size === 0) return null;
  const need = requiredShared(goldWords.size, share);
  let best: CandidateUnit | null = null;
  let bestShared = 0;
  for (const unit of units) {
    if (!unit.sourceMessageIds.some((id) => gold.evidence.includes(id))) continue;
    const n = shared(goldWords, contentWordSet(unit.text, speakerNames));
    if (n >= need && n > bestShared) {
      best = unit;
      bestShared = n;
    }
  }
  return best;
}

/** Every turn as one unguarded unit: the reference for `turnCeiling`. */
function turnUnits(session: LocomoSession): CandidateUnit[] {
  return session.messages.map((m) => ({ kind: 'fact', category: 'Facts', text: m.text, sourceMessageIds: [m.id], repairs: [] }));
}

export async function evalObservationCoverage(
  sessions: readonly LocomoSession[],
  extract: SessionExtractor,
  extractorName: string,
): Promise<ObservationEvalReport> {
  const byCategory = Object.fromEntries(CATEGORIES.map((c) => [c, { units: 0, coveringUnits: 0 }])) as Record<
    Category,
    { units: number; coveringUnits: number }
  >;
  let goldFacts = 0;
  let covered = 0;
  let strict = 0;
  let ceiling = 0;
  let proposed = 0;
  let passed = 0;
  let accepted = 0;
  let words = 0;
  for (const session of sessions) {
    const run = await extract(session);
    const names = new Set(session.speakers.flatMap((s) => tokens(s)));
    for (const w of run.windows) {
      proposed += w.proposed;
      passed += w.passedUnchanged;
    }
    accepted += run.units.length;
    for (const unit of run.units) {
      words += wordCount(unit.text);
      byCategory[unit.category].units += 1;
    }
    const covering = new Set<CandidateUnit>();
    for (const gold of session.gold) {
      goldFacts += 1;
      if (coveringUnit(gold, run.units, names, STRICT_SHARED_SHARE)) strict += 1;
      if (coveringUnit(gold, turnUnits(session), names)) ceiling += 1;
      const unit = coveringUnit(gold, run.units, names);
      if (!unit) continue;
      covered += 1;
      covering.add(unit);
    }
    for (const unit of covering) byCategory[unit.category].coveringUnits += 1;
  }
  const ratio = (a: number, b: number): number => (b === 0 ? 0 : Math.round((a / b) * 10_000) / 10_000);
  return {
    extractor: extractorName,
    sessions: sessions.length,
    goldFacts,
    coveredFacts: covered,
    coverage: ratio(covered, goldFacts),
    strictCoverage: ratio(strict, goldFacts),
    turnCeiling: ratio(ceiling, goldFacts),
    units: accepted,
    validatorPassRate: ratio(passed, proposed),
    acceptedRate: ratio(accepted, proposed),
    meanWordsPerUnit: accepted === 0 ? 0 : Math.round((words / accepted) * 100) / 100,
    byCategory,
    rule: COVERAGE_RULE,
  };
}
