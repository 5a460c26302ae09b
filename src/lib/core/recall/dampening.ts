/**
 * Post-fusion dampening (DESIGN, "Growing the read path"): after scoring and before the funnel,
 * three multipliers on a candidate's score, each switchable and each reported in the trace.
 *
 * - gravity x0.5: a candidate reached only by a semantic path (no keyword list returned it) that
 *   holds none of the prompt's words. Vectors pull in what is near in meaning; with nothing of the
 *   prompt in it, such a memory should not outrank one the prompt's own words found.
 * - hub x0.7: every entity the candidate links to is a hub (mentioned more than the vault's 90th
 *   percentile of mention counts): a memory that is only about "the person everyone talks about"
 *   says little about this prompt. Needs the entity graph's mention counts; without them it is off.
 * - resolution x1.2 / x1.1: a decision or a constraint (a note filed so, or a turn stating one) and
 *   a temporal anchor (a date, a weekday, "last week") settle things; a text under 50 characters
 *   gets neither (a bare "Yes, let's do it." resolves nothing on its own).
 * - subject x1.5: the prompt names a person the vault knows (a speaker) and the candidate is about
 *   them, read as the subject check reads it (subject-check.ts `aboutNamed`: a turn's statements that
 *   hold the prompt's other words, first person its speaker, second person its listener). "What
 *   books has Melanie read?" puts Melanie's own turns on books above Caroline's.
 *
 * The funnel sorts its survivors by score (provenance-rank.ts), so the multipliers order the
 * package; they never drop anything.
 */
import { CONSTRAINT, DECISION } from '../extract/cues';
import type { ScoredCandidate } from './types';

export const DAMPENING = {
  gravity: 0.5,
  hub: 0.7,
  decision: 1.2,
  temporal: 1.1,
  minResolutionChars: 50,
  subject: 1.5,
} as const;

export interface DampeningOptions {
  gravity: boolean;
  hub: boolean;
  resolution: boolean;
  subject: boolean;
}

/**
 * Measured on LoCoMo dev (funnel, recall@10 / @1,000 tokens, the other issue-12 stages on; recall
 * README, ablation): all on 0.743 / 0.835, all off 0.748 / 0.837, hub off 0.747 / 0.836, resolution
 * off 0.742 / 0.838. Hub dampening lowered recall (every LoCoMo turn links to its speaker, a hub, so
 * it dampens nearly everything but the turns naming someone else): off by default. Gravity and
 * resolution moved recall by less than the noise of a few questions: on, as designed.
 * Subject boost (`eval locomo --modes funnel`, recall@10 / @1,000 tokens / multi-hop @10, the
 * factor DAMPENING.subject): 1 (off) 0.751 / 0.837 / 0.402, 1.2 0.759 / 0.839 / 0.412, 1.5 0.764 /
 * 0.840 / 0.434, 2 0.763 / 0.841 / 0.436, 3 0.755 / 0.839 / 0.446, 5 0.754 / 0.839 / 0.446: 1.5, the
 * best at 10 items; it raises every one of the five conversations at 10 items and at 1,000 tokens.
 */
export const DEFAULT_DAMPENING: DampeningOptions = { gravity: true, hub: false, resolution: true, subject: true };

/** The entities a candidate links to, with their mention counts, and the vault's P90 of those counts. */
export interface HubFacts {
  entitiesOf(id: string): readonly { id: string; mentions: number }[];
  p90: number;
}

export interface DampeningTrace {
  gravity: { enabled: boolean; applied: number };
  hub: { enabled: boolean; applied: number; p90: number | null };
  resolution: { enabled: boolean; decisions: number; temporal: number };
  subject: { enabled: boolean; applied: number };
}

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const TEMPORAL = new RegExp(
  [
    `\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}\\b`,
    `\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?\\b`,
    `\\b${MONTH}\\s+\\d{4}\\b`,
    '\\b\\d{4}-\\d{2}-\\d{2}\\b',
    '\\b\\d{1,2}/\\d{1,2}/\\d{2,4}\\b',
    '\\b(?:19|20)\\d{2}\\b',
    '\\b(?:last|next|this)\\s+(?:week|weekend|month|year|summer|winter|spring|fall|autumn|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\\b',
    '\\b(?:yesterday|tomorrow|tonight)\\b',
    '\\b(?:on|every|by)\\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\\b',
    '\\b(?:\\w+|\\d+)\\s+(?:days|weeks|months|years)\\s+ago\\b',
  ].join('|'),
  // ASCII only, so no 'u': with it V8 matched about six times slower (15 -> 2.5 us on a 155-character
  // turn), and it only let "ſep" match "sep".
  'i',
);

const DECIDING_CATEGORIES = new Set(['Decisions', 'Constraints']);

export function isTemporalAnchor(text: string): boolean {
  return TEMPORAL.test(text);
}

export function isDecisionOrConstraint(candidate: Pick<ScoredCandidate, 'record'>): boolean {
  const { record } = candidate;
  if (record.category !== undefined) return DECIDING_CATEGORIES.has(record.category);
  return DECISION.test(record.text) || CONSTRAINT.test(record.text);
}

function gravityHolds(c: ScoredCandidate): boolean {
  return c.signals.bm25Rank === null && c.signals.vectorRank !== null && c.signals.coverage === 0;
}

/** The candidates with their scores multiplied (fused order kept) and what each stage did. */
export function dampen(
  candidates: readonly ScoredCandidate[],
  options: DampeningOptions = DEFAULT_DAMPENING,
  hubs: HubFacts | null = null,
  /** Ids of the candidates about a person the prompt names (`aboutNamed`); null: the prompt names none. */
  aboutNamed: ReadonlySet<string> | null = null,
): { candidates: ScoredCandidate[]; trace: DampeningTrace } {
  const trace: DampeningTrace = {
    gravity: { enabled: options.gravity, applied: 0 },
    hub: { enabled: options.hub && hubs !== null, applied: 0, p90: hubs?.p90 ?? null },
    resolution: { enabled: options.resolution, decisions: 0, temporal: 0 },
    subject: { enabled: options.subject && aboutNamed !== null, applied: 0 },
  };
  const out = candidates.map((c) => {
    const factors: { gravity?: number; hub?: number; resolution?: number; subject?: number } = {};
    if (options.gravity && gravityHolds(c)) {
      factors.gravity = DAMPENING.gravity;
      trace.gravity.applied++;
    }
    if (options.hub && hubs) {
      const linked = hubs.entitiesOf(c.record.id);
      if (linked.length > 0 && linked.every((e) => e.mentions > hubs.p90)) {
        factors.hub = DAMPENING.hub;
        trace.hub.applied++;
      }
    }
    if (options.resolution && c.record.text.trim().length >= DAMPENING.minResolutionChars) {
      let boost = 1;
      if (isDecisionOrConstraint(c)) {
        boost *= DAMPENING.decision;
        trace.resolution.decisions++;
      }
      if (isTemporalAnchor(c.record.text)) {
        boost *= DAMPENING.temporal;
        trace.resolution.temporal++;
      }
      if (boost !== 1) factors.resolution = boost;
    }
    if (options.subject && aboutNamed?.has(c.record.id)) {
      factors.subject = DAMPENING.subject;
      trace.subject.applied++;
    }
    const factor = (factors.gravity ?? 1) * (factors.hub ?? 1) * (factors.resolution ?? 1) * (factors.subject ?? 1);
    if (factor === 1) return c;
    return { ...c, scores: { ...c.scores, score: c.scores.score * factor, dampening: factors } };
  });
  return { candidates: out, trace };
}
