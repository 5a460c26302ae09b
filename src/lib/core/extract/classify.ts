import type { Role } from '../records';
import {
  ACTION,
  CHOICE_VERBS,
  CONSTRAINT,
  DECISION,
  FUTURE_VERB,
  HEDGE,
  REPORTED,
  STRONG_CONSTRAINT,
  SUGGESTION,
  USER_CONSTRAINT,
  TASK_TIME,
  TASK_VERBS,
} from './cues';
import type { Category } from './units';

/**
 * The rules that file one clause under a category, in the order a careful labeller applies them
 * (tests/fixtures/extraction/README.md): topic requests, questions, other people's choices,
 * hedges, limits with a quantity, the person's tasks and choices, other limits, suggestions,
 * facts. Decisions and Action Items come only from the person's own turns.
 */
export interface ClauseContext {
  role: Role;
  /** The clause sits in the first user message of the conversation (where a person states the subject). */
  firstUserTurn: boolean;
  /** The whole sentence opened with "Decided:" / "Decision:" (it governs every clause of the sentence). */
  decidedSentence: boolean;
  /** The assistant's sentence lists options after a colon: its plain items are suggestions. */
  optionList?: boolean;
}

export interface Classified {
  category: Category;
  /** Which rule fired: shown nowhere, used by tests and the error report. */
  cue: string;
}

const TOPIC_REQUEST =
  /^(?:(?:can|could|would) you (?:please )?help me(?: (?:with|to|on|plan|choose|build|make|fix))?|(?:please )?help me(?: (?:with|to|on))?|(?:(?:i|we)\s*)?(?:need|want|would like|'d like) (?:some )?(?:help|advice) (?:with|on|about|to)|(?:i|we)(?: want|'d like| would like) to (?:talk|chat) about|let(?:'s| us) talk about|(?:next|new|another|quick|a) (?:question|topic)(?: about)?[:,]?)\s+/iu;
const OPENER = /\b(?:i|we)(?: want| need| would like|'d like| am trying|'m trying| am planning|'m planning| plan) to\s+/iu;
const NOT_A_QUESTION =
  /^(?:any (?:advice|ideas|tips|thoughts|suggestions|recommendations)|thoughts|ideas|right|ok|okay|no|yes|really|like this|what do you think|does that make sense)\??$/iu;

/** Words whose plain present after "I" / "we" is a non-native way to state a choice ("I take the ProArt"). */
const PRESENT_CHOICE =
  /(?:^|[,;:]\s*|\b(?:so|then|and|but)\s+)(?:i|we) (?:take|stop|choose|pick|skip|switch|go|do|make|keep)\b(?! \w+ing\b)(?!\s*[.,!]?$)|\b(?:i|we) (?:stop|quit)(?=[.!,]?$)/iu;
/** A habit, not a choice ("we go there every week"). */
const HABIT = /\b(?:a|per|every|each) (?:day|week|month|year|night|morning)\b|\busually\b|\balways\b|\boften\b/iu;
const AUXILIARY =
  /\b(?:is|are|was|were|be|been|being|am|has|have|had|do|does|did|can|could|will|would|shall|should|may|might|must|isn't|aren't|wasn't|don't|doesn't|didn't|can't|won't|wouldn't|shouldn't)\b|'(?:s|re|m|ll|d|ve)\b/iu;
const SUBJECT_VERB = /\b(?:i|we|you|he|she|they|it|that|which|who)\s+[a-z]+/iu;
/** Words that make a verbless reply a choice: a schedule, an order, an exclusion. */
const SCHEDULE =
  /\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekly|daily|monthly|every|each|per|first|then|instead|only|this year|this month|from \d+(?:[.:]\d+)?\s*(?:am|pm)? to \d+(?:[.:]\d+)?\s*(?:am|pm)?|no [a-z]+)\b/iu;
const APPROXIMATE = /\b(?:about|around|roughly|approximately|nearly|almost)\b|~/iu;

/** A clause with no finite verb ("Two hours, from 3 to 5pm."): chat replies state choices this way. */
export function isVerbless(clause: string): boolean {
  return (
    !AUXILIARY.test(clause) &&
    !SUBJECT_VERB.test(clause) &&
    !/\b\w+(?:ed)\b/iu.test(clause.replace(/\b(?:need|red|bed|speed|seed|feed|shed|wed)\b/giu, ''))
  );
}
const NEGATED_CHOICE =
  /\b(?:i|we)(?:'re| are|'m| am) not \w+ing\b|\b(?:i|we) (?:won't|will not|shall not|don't|do not|never)\s+(?!know|think|have|like|want|need|mind|care|see|sure|understand|remember|expect|get|feel|believe|agree)[a-z]+/iu;
const NO_THING = /^(?:so )?no [\p{L}][\p{L}\p{N} -]*$/iu;
const X_NOT_Y = /,\s*not (?:a |an |the )?[\p{L}\p{N}]/iu;
const CONDITIONAL = /^if\b|\bif (?:i|we|they|it|he|she|you)\b.*\b(?:would|'d|might|could|maybe)\b/iu;
const USER_SOFT = /\b(?:would|we'd|i'd|could|sounds?)\b/iu;
const ASSISTANT_SOFT = /\b(?:would|could|can cause)\b|\bcan be (?!\w+ed\b)|\bmay\b(?! \d)/u;
const QUANTITY_LIMIT =
  /\b(?:at most|at least|no more than|no less than|less than|more than|max(?:imum)?|min(?:imum)?|up to|under|below|within|budget|deadline)\b/iu;
const LEADING_FRAME =
  /^(?:(?:then|also|so|and|first|finally|next|afterwards|otherwise|instead|now|meanwhile|either way),?\s+|(?:note|remember|keep in mind|bear in mind) that\s+|(?:for|in|at|on|with|after|before|during|once|when|since|from|to|if|as|by)\b[^,]{1,60},\s*)+/iu;

/** The first word of the clause once a leading frame ("In Alfama, ", "Then ") is set aside. */
export function leadingVerb(clause: string): string {
  const body = clause.replace(LEADING_FRAME, '');
  const [first = '', second = ''] = body.toLowerCase().split(/\s+/u);
  // "Batch-cook the rice" -> "cook".
  const word =
    first
      .replace(/[^a-z-]/gu, '')
      .split('-')
      .at(-1) ?? '';
  // "Water is..." or "Record sales were..." are not imperatives.
  if (/^(?:is|are|was|were|has|have|had|can|will|would|'s|of|and)$/u.test(second.replace(/[^a-z']/gu, ''))) return '';
  return word;
}

/** Base verbs that open advice ("Water the lawn early.") or a person's instruction to themselves. */
const IMPERATIVE_VERBS: ReadonlySet<string> = new Set([
  ...CHOICE_VERBS,
  ...TASK_VERBS,
  ...(
    'avoid pay look feed water place spend enable disable declare parse filter watch film orient increase decrease reduce ride mix ' +
    'cool heat leave let give mention save share store track train wait plan cook prepare bring pack wear lock label ' +
    'retry change recheck request taper edit flag slow say ask speak talk listen watch follow unfollow subscribe ' +
    'invest transfer forward notify inform warn delegate outsource hire interview shortlist vote rotate space pace ' +
    'prune trim cut dig sow soak rinse wash dry fill empty press cube season stir bake roast boil fry chop slice ' +
    'replace restart reboot update upgrade install uninstall configure deploy commit push pull merge rebase run profile ' +
    'measure compare list sort count split join keep stretch rest warm walk jog sleep eat drink breathe focus relax ' +
    'start finish begin end limit cap aim target budget price negotiate counter decline accept confirm insist frame ' +
    'present introduce explain describe tell show highlight emphasise emphasize stress open close'
  ).split(' '),
]);

export function isImperative(clause: string): boolean {
  const verb = leadingVerb(clause);
  return verb !== '' && IMPERATIVE_VERBS.has(verb);
}

function userDecisionOrAction(clause: string, ctx: ClauseContext): Classified | null {
  const timed = TASK_TIME.test(clause);
  if (ACTION.test(clause)) return { category: 'Action Items', cue: 'action' };
  const future = FUTURE_VERB.exec(clause);
  if (future && /'ll| will| shall|going to/iu.test(future[0]) && !/^(?:be|let)$/iu.test(future[2] ?? '')) {
    const verb = (future[2] ?? '').toLowerCase();
    // "I'll ask for €76k" chooses an amount; "I'll ask about the trial week" is a task.
    const amount = /[€$£¥]\s?\d|\d+(?:[.,]\d+)?\s?(?:k|%)(?!\p{L})/u.test(clause);
    if (!future[1] && (timed || (TASK_VERBS.has(verb) && !amount))) return { category: 'Action Items', cue: `future-task:${verb}` };
    return { category: 'Decisions', cue: `future-choice:${verb}` };
  }
  if (ctx.decidedSentence || DECISION.test(clause)) return { category: 'Decisions', cue: 'decision' };
  if (NEGATED_CHOICE.test(clause)) return { category: 'Decisions', cue: 'negated-choice' };
  if (NO_THING.test(clause.replace(/[.!]+$/u, '')) && clause.split(/\s+/u).length <= 5) return { category: 'Decisions', cue: 'no-thing' };
  if (X_NOT_Y.test(clause)) return { category: 'Decisions', cue: 'x-not-y' };
  const present = PRESENT_CHOICE.exec(clause);
  if (present && (/take|stop|choose|pick|skip|switch/iu.test(present[0]) || !HABIT.test(clause))) {
    return { category: 'Decisions', cue: 'present-choice' };
  }
  if (/^\p{L}+ing\b/u.test(clause) && timed) return { category: 'Action Items', cue: 'gerund-timed' };
  const verb = leadingVerb(clause);
  if (verb && IMPERATIVE_VERBS.has(verb)) {
    if (TASK_VERBS.has(verb) || timed) return { category: 'Action Items', cue: `imperative-task:${verb}` };
    return { category: 'Decisions', cue: `imperative-choice:${verb}` };
  }
  if (
    isVerbless(clause) &&
    !/^\p{L}+ing\b/u.test(clause) &&
    SCHEDULE.test(clause) &&
    !APPROXIMATE.test(clause) &&
    !/\blast\s+\w+/iu.test(clause)
  ) {
    return { category: 'Decisions', cue: 'verbless-choice' };
  }
  return null;
}

/** An inverted question without its "?" ("Do you have any experience with adoption."). */
const INVERTED = /^(?:do|does|did|can|could|would|will|is|are|was|were|have|has|should|shall)\s+(?:you|we|i|they|he|she|it)\b/iu;

function userClause(clause: string, ctx: ClauseContext): Classified {
  const question = /\?\s*$/u.test(clause) || INVERTED.test(clause);
  if (TOPIC_REQUEST.test(clause)) return { category: 'Topics', cue: 'topic' };
  if (question) return { category: 'Open Questions', cue: 'question' };
  if (ctx.firstUserTurn && OPENER.test(clause) && !TASK_TIME.test(clause)) return { category: 'Topics', cue: 'topic' };
  if (REPORTED.test(clause) && !/^(?:i|we)\b/iu.test(clause)) return { category: 'Facts', cue: 'reported' };
  if (HEDGE.test(clause) || CONDITIONAL.test(clause)) return { category: 'Provisional/Exploratory', cue: 'hedge' };
  if (QUANTITY_LIMIT.test(clause) && CONSTRAINT.test(clause) && !ctx.decidedSentence) return { category: 'Constraints', cue: 'limit' };
  if (USER_CONSTRAINT.test(clause) && !ctx.decidedSentence) return { category: 'Constraints', cue: 'user-constraint' };
  const chosen = userDecisionOrAction(clause, ctx);
  if (chosen) return chosen;
  if (CONSTRAINT.test(clause)) return { category: 'Constraints', cue: 'constraint' };
  if (USER_SOFT.test(clause)) return { category: 'Provisional/Exploratory', cue: 'soft' };
  return { category: 'Facts', cue: 'fact' };
}

function assistantClause(clause: string, ctx: ClauseContext): Classified {
  const body = clause.replace(LEADING_FRAME, '');
  if (/^(?:don't|do not|never)\b/iu.test(body)) return { category: 'Constraints', cue: 'prohibition' };
  if (STRONG_CONSTRAINT.test(body)) return { category: 'Constraints', cue: 'strong-constraint' };
  if (SUGGESTION.test(clause) || /^avoid\b/iu.test(clause)) return { category: 'Ideas', cue: 'suggestion' };
  if (HEDGE.test(clause)) return { category: 'Provisional/Exploratory', cue: 'hedge' };
  if (isImperative(clause)) return { category: 'Ideas', cue: 'imperative' };
  if (CONSTRAINT.test(clause)) return { category: 'Constraints', cue: 'constraint' };
  if (ASSISTANT_SOFT.test(clause)) return { category: 'Provisional/Exploratory', cue: 'soft' };
  if (ctx.optionList) return { category: 'Ideas', cue: 'option' };
  return { category: 'Facts', cue: 'fact' };
}

export function classifyClause(clause: string, ctx: ClauseContext): Classified | null {
  if (ctx.role === 'user' && NOT_A_QUESTION.test(clause.trim())) return null;
  return ctx.role === 'user' ? userClause(clause, ctx) : assistantClause(clause, ctx);
}

/** The request of a topic sentence without its framing ("Can you help me plan X?" -> "plan X"). */
export function topicText(clause: string): string {
  const stripped = clause
    .replace(TOPIC_REQUEST, '')
    .replace(/^.*?\b(?:i|we) (?:want|need|would like|'d like|am trying|'m trying|am planning|'m planning|plan) to\s+/iu, '');
  return stripped.replace(/\?\s*$/u, '.').trim() || clause;
}
