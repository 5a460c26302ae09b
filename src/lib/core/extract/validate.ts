import type { Role } from '../records';
import { hashBasis, normalizeText } from '../text/normalize';
import { isHedged } from './cues';
import { compressUnitText, splitClaims, splitToLimit } from './unit-text';
import {
  ALLOWED_CATEGORIES,
  DEFAULT_CATEGORY,
  isUnitKind,
  MAX_UNIT_WORDS,
  wordCount,
  type CandidateUnit,
  type Category,
  type RawUnit,
  type RejectedUnit,
  type UnitKind,
  type ValidationNote,
  type ValidationRule,
} from './units';
import { looseCategory, kindForCategory } from './category-match';

/**
 * The extraction validator. Every extractor's output (LLM or rule-based) goes through it. It
 * enforces: known kind and category, a category the kind may take, citations that exist in the
 * window, decisions citing user messages only, hedged units kept provisional, one claim per unit,
 * at most fifteen words (a longer unit is split, never cut), repetitions collapsed. What fails is repaired when a repair keeps the
 * meaning, and dropped otherwise; the reason is kept either way.
 */
export interface ValidationContext {
  /** Role of every message of the window, by message id. */
  roles: ReadonlyMap<string, Role>;
  maxWords?: number;
}

export interface ValidationResult {
  accepted: CandidateUnit[];
  rejected: RejectedUnit[];
  /** Raw units that passed with no repair at all. */
  passedUnchanged: number;
  total: number;
}

const note = (rule: ValidationRule, message: string): ValidationNote => ({ rule, message });
// Ideas are proposals: hedged wording ("you might add...") is their nature, not a reason to demote them.
const CONFIDENT: readonly Category[] = ['Decisions', 'Facts', 'Constraints', 'Action Items'];

interface Draft {
  kind: UnitKind;
  category: Category;
  text: string;
  ids: string[];
  repairs: ValidationNote[];
}

type Step = { ok: true; draft: Draft } | { ok: false; reasons: ValidationNote[] };

function shape(raw: RawUnit): Step {
  if (typeof raw.text !== 'string') return { ok: false, reasons: [note('malformed', 'The unit has no text.')] };
  const text = normalizeText(raw.text).replace(/^["'“”]+|["'“”]+$/gu, '');
  if (!/[\p{L}\p{N}]/u.test(text)) return { ok: false, reasons: [note('empty', 'The unit text is empty.')] };
  const repairs: ValidationNote[] = [];
  const category = looseCategory(raw.category);
  let kind: UnitKind;
  if (isUnitKind(raw.kind)) kind = raw.kind;
  else if (category) {
    kind = kindForCategory(category);
    repairs.push(note('unknown-kind', `Unknown kind ${JSON.stringify(raw.kind)}: taken from the category as "${kind}".`));
  } else {
    return { ok: false, reasons: [note('unknown-kind', 'Neither the kind nor the category is known.')] };
  }
  let finalCategory: Category;
  if (category) {
    finalCategory = category;
    if (category !== raw.category)
      repairs.push(note('unknown-category', `Category ${JSON.stringify(raw.category)} read as "${category}".`));
  } else {
    finalCategory = DEFAULT_CATEGORY[kind];
    repairs.push(note('unknown-category', `Unknown category ${JSON.stringify(raw.category)}: filed under "${finalCategory}".`));
  }
  if (!ALLOWED_CATEGORIES[kind].includes(finalCategory)) {
    repairs.push(note('category-mismatch', `A ${kind} cannot be filed under "${finalCategory}": moved to "${DEFAULT_CATEGORY[kind]}".`));
    finalCategory = DEFAULT_CATEGORY[kind];
  }
  return { ok: true, draft: { kind, category: finalCategory, text, ids: [], repairs } };
}

function citations(raw: RawUnit, draft: Draft, roles: ReadonlyMap<string, Role>): Step {
  const given = Array.isArray(raw.sourceMessageIds)
    ? raw.sourceMessageIds.filter((id): id is string => typeof id === 'string')
    : typeof raw.sourceMessageIds === 'string'
      ? [raw.sourceMessageIds]
      : [];
  if (given.length === 0) return { ok: false, reasons: [note('no-citation', 'The unit cites no message.')] };
  const known = [...new Set(given.filter((id) => roles.has(id)))];
  if (known.length === 0) {
    return { ok: false, reasons: [note('unknown-citation', `None of the cited ids (${given.join(', ')}) is in the window.`)] };
  }
  const repairs = [...draft.repairs];
  if (known.length < new Set(given).size) {
    const unknown = given.filter((id) => !roles.has(id));
    repairs.push(note('unknown-citation', `Dropped citations not in the window: ${unknown.join(', ')}.`));
  }
  return { ok: true, draft: { ...draft, ids: known, repairs } };
}

/** Decisions are credited only to the user: non-user citations are removed, and with none left the unit becomes an idea. */
function decisionRule(draft: Draft, roles: ReadonlyMap<string, Role>): Draft {
  if (draft.kind !== 'decision') return draft;
  const userIds = draft.ids.filter((id) => roles.get(id) === 'user');
  if (userIds.length === 0) {
    return {
      ...draft,
      kind: 'claim',
      category: 'Ideas',
      repairs: [
        ...draft.repairs,
        note('decision-not-user', 'A decision must cite a user message where the user committed; kept as an idea.'),
      ],
    };
  }
  if (userIds.length < draft.ids.length) {
    return {
      ...draft,
      ids: userIds,
      repairs: [...draft.repairs, note('decision-not-user', 'Non-user messages removed from the decision citations.')],
    };
  }
  return draft;
}

function formRules(draft: Draft): Draft {
  let next = draft;
  if (/\?$/u.test(next.text) && next.kind !== 'question') {
    next = {
      ...next,
      kind: 'question',
      category: 'Open Questions',
      repairs: [...next.repairs, note('interrogative', 'The text is a question: filed under Open Questions.')],
    };
  }
  if (next.kind !== 'question' && CONFIDENT.includes(next.category) && isHedged(next.text)) {
    next = {
      ...next,
      kind: next.kind === 'decision' ? 'claim' : next.kind,
      category: 'Provisional/Exploratory',
      repairs: [...next.repairs, note('hedged', 'The text is hedged: kept provisional rather than tightened.')],
    };
  }
  return next;
}

function finishText(text: string): string {
  // A list item's number left by a split after a colon ("... approaches: 1) Read files in chunks").
  const trimmed = text.replace(/^\(?\d{1,2}[.)]\s+(?=\p{L})/u, '').replace(/[\s,;:]+$/u, '');
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.?!]$/u.test(capital) ? capital.replace(/!+$/u, '.') : `${capital}.`;
}

/** At most `maxWords` words: filler removed first, else split into several units; never cut, so nothing is dropped. */
function lengthRule(draft: Draft, maxWords: number): Draft[] {
  if (wordCount(draft.text) <= maxWords) return [{ ...draft, text: finishText(draft.text) }];
  const compressed = compressUnitText(draft.text);
  if (wordCount(compressed) <= maxWords) {
    return [
      {
        ...draft,
        text: finishText(compressed),
        repairs: [...draft.repairs, note('too-long', `Filler words removed to reach ${maxWords} words.`)],
      },
    ];
  }
  const pieces = splitToLimit(draft.text, maxWords);
  return pieces.map((piece) => ({
    ...draft,
    text: finishText(piece),
    repairs: [...draft.repairs, note('too-long', `Split into ${pieces.length} units of at most ${maxWords} words.`)],
  }));
}

function validateOne(raw: RawUnit, context: ValidationContext): { drafts: Draft[]; reasons: ValidationNote[] } {
  const maxWords = context.maxWords ?? MAX_UNIT_WORDS;
  const shaped = shape(raw);
  if (!shaped.ok) return { drafts: [], reasons: shaped.reasons };
  const cited = citations(raw, shaped.draft, context.roles);
  if (!cited.ok) return { drafts: [], reasons: cited.reasons };
  const decided = formRules(decisionRule(cited.draft, context.roles));
  const claims = splitClaims(decided.text);
  const parts =
    claims.length > 1
      ? claims.map((text) => ({
          ...decided,
          text,
          repairs: [...decided.repairs, note('several-claims', `Split into ${claims.length} single-claim units.`)],
        }))
      : [decided];
  const drafts = parts.flatMap((part) => lengthRule(formRules(part), maxWords));
  return { drafts, reasons: [] };
}

export function validateUnits(raws: readonly RawUnit[], context: ValidationContext): ValidationResult {
  const accepted: CandidateUnit[] = [];
  const rejected: RejectedUnit[] = [];
  const byBasis = new Map<string, CandidateUnit>();
  let passedUnchanged = 0;
  for (const raw of raws) {
    const { drafts, reasons } = validateOne(raw, context);
    if (drafts.length === 0) {
      rejected.push({ raw, reasons });
      continue;
    }
    if (reasons.length > 0) rejected.push({ raw, reasons });
    if (drafts.length === 1 && drafts[0]?.repairs.length === 0 && reasons.length === 0) passedUnchanged += 1;
    for (const draft of drafts) {
      const key = `${draft.category}|${hashBasis(draft.text)}`;
      const seen = byBasis.get(key);
      if (seen) {
        for (const id of draft.ids) if (!seen.sourceMessageIds.includes(id)) seen.sourceMessageIds.push(id);
        if (!seen.repairs.some((r) => r.rule === 'repetition')) {
          seen.repairs.push(note('repetition', 'Repeated in the conversation: collapsed, citations merged.'));
        }
        continue;
      }
      const unit: CandidateUnit = {
        kind: draft.kind,
        category: draft.category,
        text: draft.text,
        sourceMessageIds: draft.ids,
        repairs: draft.repairs,
      };
      byBasis.set(key, unit);
      accepted.push(unit);
    }
  }
  return { accepted, rejected, passedUnchanged, total: raws.length };
}
