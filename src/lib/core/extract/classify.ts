import type { Role } from '../records';
import {
  ACTION,
  CHOICE_VERBS,
  CONSTRAINT,
  DECISION,
  DIET,
  FUTURE_TASK_VERBS,
  FUTURE_VERB,
  HEDGE,
  isHedged,
  REPORTED,
  STRONG_CONSTRAINT,
  SUGGESTION,
  USER_CONSTRAINT,
  TASK_TIME,
  TASK_VERBS,
} from './cues';
import type { Category } from './units';
import { BASE_VERBS } from './verbs';

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
  /^(?:(?:hi|hiya|hey|hello)[,!.]?\s+)?(?:(?:can|could|would) (?:you|u) (?:please )?help me(?: (?:with|to|on|plan|choose|build|make|fix|think through|figure out|decide on|decide))?|(?:please )?help me(?: (?:with|to|on|think through|figure out))?|(?:please )?(?:tell|give|show|write|explain to|teach|recommend|suggest|list|draft|describe to) (?:me|us)(?: (?:about|how to|how|why))?|(?:(?:i|we)\s*)?(?:need|want|would like|'d like) (?:some )?(?:help|advice)(?: (?:with|on|about|to)|(?=\s+\p{L}+ing\b))|(?:i|we)(?: want|'d like| would like) to (?:talk|chat) about|let(?:'s| us) talk about|(?:next|new|another|quick|a|different|one more|other) (?:question|topic|thing)(?: about)?[:,]?|(?:agenda item|topic(?: for today)?|(?:first|next|final|last) (?:point|item))\s*:)\s+/iu;
const OPENER =
  /\b(?:i|we)(?: want| need| would like|'d like| am trying|'m trying| am planning|'m planning| plan) to\s+|^(?:want|wanna|need|trying|planning) to\s+|^let(?:'s| us) (?:work on|look at|go through|talk through|figure out)\s+|^(?!(?:being|going|nothing|something|anything|everything|morning|evening|thing|king|spring|ceiling|building|wedding|during)\b)\p{L}{3,}ing (?:a|an|the|my|our|some)\s|^(?:(?:i'm|we're|i am|we are)\s+)?planning\s+|\b(?:i|we)(?: want| need| would like|'d like)\s+(?:a|an|some|the|help)\s+/iu;
const OPENER_HEAD =
  /^.*?\b(?:i|we)(?: want| need| would like|'d like| am trying|'m trying| am planning|'m planning| plan) to\s+|^(?:want|wanna|need|trying|planning) to\s+|^let(?:'s| us) (?:work on|look at|go through|talk through|figure out)\s+|^(?:(?:i'm|we're|i am|we are)\s+)?planning\s+|^.*?\b(?:i|we)(?: want| need| would like|'d like)\s+(?=(?:a|an|some|the)\s)/iu;
const NOT_A_QUESTION =
  /^(?:any (?:advice|ideas|tips|thoughts|suggestions|recommendations)|thoughts|ideas|right|ok|okay|no|yes|really|like this|what do you think|does that make sense)\??$/iu;

/** Words whose plain present after "I" / "we" is a non-native way to state a choice ("I take the ProArt"). */
const PRESENT_CHOICE =
  /(?:^|[,;:]\s*|\b(?:so|then|and|but)\s+)(?:i|we) (?:take|stop|choose|pick|skip|switch|go|do|make|keep)\b(?! \w+ing\b)(?!\s*[.,!]?$)|\b(?:i|we) (?:stop|quit)(?=[.!,]?$)/iu;
/** A habit, not a choice ("we go there every week"). */
const HABIT = /\b(?:a|per|every|each) (?:day|week|month|year|night|morning)\b|\busually\b|\balways\b|\boften\b/iu;
const AUXILIARY =
  /\b(?:is|are|was|were|be|been|being|am|has|have|had|do|does|did|can|could|will|would|shall|should|may|might|must|isn't|aren't|wasn't|don't|doesn't|didn't|can't|won't|wouldn't|shouldn't)\b|'(?:re|m|ll|d|ve)\b|\b(?:it|that|there|what|here|he|she|who|where|how|this)'s\b/iu;
const SUBJECT_VERB = /\b(?:i|we|you|he|she|they|it|that|which|who)\s+[a-z]+/iu;
/** Words that make a verbless reply a choice: a schedule, an order, an exclusion. */
const SCHEDULE =
  /\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekly|daily|monthly|every|each|per|first|then|instead|only|this year|this month|from \d+(?:[.:]\d+)?\s*(?:am|pm)? to \d+(?:[.:]\d+)?\s*(?:am|pm)?|no [a-z]+|[\p{L}\p{N}-]+ over (?!the\b|a\b|an\b|\d)[\p{L}\p{N}-]+)\b/iu;
const APPROXIMATE = /\b(?:about|around|roughly|approximately|nearly|almost)\b|~/iu;

/** Common verbs in the third person ("Taste matters more to me."): a clause with one is not verbless. */
const PRESENT_VERB =
  /\b(?:matters|needs|works|makes|takes|gets|goes|comes|seems|looks|feels|sounds|costs|means|helps|wants|likes|loves|hates|says|runs|uses|keeps|holds|gives|lets|fits|suits|depends|happens|includes|contains|covers|changes|starts|ends|stays|remains|becomes|leaves|brings|shows|tells|knows|thinks|lives|owns|pays|sells|buys|grows|moves|opens|closes|breaks|fails|wins|loses|lasts|counts|requires|allows|offers|provides|supports|ships)\b/iu;

/**
 * The clause without a trailing reason ("Czkawka over rmlint, since my wife wants a GUI"): the
 * reason says why, not what the clause is, so the rules read the main part.
 */
export function withoutReason(clause: string): string {
  const main = clause.replace(/,?\s+(?:since|because)\s+.*$/iu, '');
  return main.trim() ? main : clause;
}

const IRREGULAR_PAST: ReadonlySet<string> = new Set(
  'said told got went made took came gave bought found thought knew had was were did saw sent paid left kept lost ran wrote spent felt'.split(
    ' ',
  ),
);

/** The words after the first, identifiers ("created_at", "refunds.id") left out. */
const laterWords = (clause: string): string[] =>
  clause
    .toLowerCase()
    .split(/\s+/u)
    .slice(1)
    .filter((w) => !/[_./\d]/u.test(w.replace(/[.,;:!?]+$/u, '')))
    .map((w) => w.replace(/[^\p{L}]/gu, ''));

/** A past form of a common verb after the first word ("said", "bought", "wanted"). */
export function hasPastForm(clause: string): boolean {
  return laterWords(clause).some(
    (w) => IRREGULAR_PAST.has(w) || (/ed$/u.test(w) && [w.slice(0, -1), w.slice(0, -2)].some((b) => BASE_VERBS.has(b))),
  );
}

/** A past or third-person form of a common verb after the first word ("said", "teaches", "insists"). */
export function hasVerbForm(clause: string): boolean {
  return (
    hasPastForm(clause) ||
    laterWords(clause).some((w) => /s$/u.test(w) && [w.slice(0, -1), w.slice(0, -2)].some((b) => b.length > 2 && BASE_VERBS.has(b)))
  );
}

/**
 * A noun phrase naming a thing, with no verb form in it at all: `isVerbless`, no `hasVerbForm`, no
 * leading gerund ("Carrying a puppy") and no approximation ("about 160 m2" describes; it does not pick).
 */
export function isNounPhrase(clause: string): boolean {
  return isVerbless(clause) && !hasVerbForm(clause) && !/^\p{L}+ing\b/u.test(clause) && !APPROXIMATE.test(clause);
}

/** A clause with no finite verb ("Two hours, from 3 to 5pm."): chat replies state choices this way. */
export function isVerbless(clause: string): boolean {
  return !AUXILIARY.test(clause) && !SUBJECT_VERB.test(clause) && !PRESENT_VERB.test(clause);
}
const NEGATED_CHOICE =
  /\b(?:i|we)(?:'re| are|'m| am) not \w+ing\b|\b(?:i|we) (?:won't|will not|shall not|don't|do not|never)\s+(?!know|think|have|like|want|need|mind|care|see|sure|understand|remember|expect|get|feel|believe|agree|own|live|mean)[a-z]+/iu;
const NO_THING = /^(?:so )?no (?!(?:idea|clue|rush|way|problem|worries|need|chance|luck)\b)[\p{L}][\p{L}\p{N} -]*$/iu;
const X_NOT_Y = /,\s*not (?:a |an |the )?[\p{L}\p{N}]/iu;
/** "We like food and views, not museums": a taste, not a choice. */
const TASTE = /\b(?:i|we)\s+(?:\w+\s+)?(?:like|love|enjoy|hate|adore)\b/iu;
/** A thing named, then turned down ("Decanting: no.", "SiteGround: no thanks.", "Elgato is nice but no."). */
const TURNED_DOWN =
  /^[^,:]{2,40}(?:[:,]\s*|\bbut\s+)(?:no|nope|nah)(?:\s+thanks?|\s+thank you|,?\s+not (?:doing|going|now|this)\b[^.]*)?[.!]?$/iu;
/** A refusal in a few words ("def not kindle", "not lugging 7kg around every day"). */
const REFUSAL =
  /^(?:(?:nah|nope|def|defo|definitely|deffo|so),?\s+)?not (?!(?:sure|bad|really|quite|much|yet|now|that|too|very|at all|great|ideal|fun|cheap|easy|a fan)\b)(?:\p{L}+ing\b|(?!\p{L}+ly\b)(?:a |an |the )?[\p{L}\p{N}-]+(?: [\p{L}\p{N}-]+)?[.!]?$)/iu;
const CONDITIONAL = /^if\b|\bif (?:i|we|they|it|he|she|you)\b.*\b(?:would|'d|might|could|maybe)\b/iu;
const USER_SOFT = /\b(?:would|we'd|i'd|could|sounds?)\b/iu;
const ASSISTANT_SOFT = /\b(?:would|could|can cause)\b|\bcan be (?!\w+ed\b)|\bmay\b(?! \d)/u;
const QUANTITY_LIMIT =
  /\b(?:at most|at least|no more than|no less than|less than|more than|max(?:imum)?|min(?:imum)?|up to|under|below|within|budget|deadline|the (?:most|least) (?:we|i)(?:'ll| will| can| would| could)?)\b/iu;
const LEADING_FRAME =
  /^(?:(?:then|also|so|and|or|first|finally|next|afterwards|otherwise|instead|now|meanwhile|either way|alternatively),?\s+|(?:note|remember|keep in mind|bear in mind) that\s+|(?:for|in|at|on|with|after|before|during|once|when|since|from|to|if|as|by|whichever|whatever)\b[^,]{1,60},\s*)+/iu;

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

/** Verbs that open advice ("Water the lawn early.") or a person's instruction to themselves. */
const IMPERATIVE_VERBS: ReadonlySet<string> = new Set([...CHOICE_VERBS, ...TASK_VERBS, ...BASE_VERBS]);

/**
 * A person's list of tasks or choices in one clause, one per piece: "order the Roland this week
 * and text the teacher tonight", "Buy the tent, borrow the rest". Only a clause that opens with a
 * verb (or "I'll" / "I need to" + verb) splits, at ", <verb>" or "and <task verb>".
 */
export function splitCoordinated(clause: string): string[] {
  const head = /^(?:(?:i|we)(?:'ll| will| need to| have to| must)\s+)?([a-z]+)\b(?!')/iu.exec(clause);
  if (!head || !IMPERATIVE_VERBS.has(head[1]!.toLowerCase())) return [clause];
  const parts: string[] = [];
  let from = 0;
  for (const m of clause.matchAll(/(,\s+(?:and\s+)?|\s+and\s+)([a-z]+)\b/giu)) {
    const verb = m[2]!.toLowerCase();
    const ok = m[1]!.includes(',') ? IMPERATIVE_VERBS.has(verb) : TASK_VERBS.has(verb);
    if (!ok) continue;
    parts.push(clause.slice(from, m.index));
    from = m.index + m[1]!.length;
  }
  parts.push(clause.slice(from));
  const pieces = parts.map((p) => p.trim()).filter(Boolean);
  return pieces.length > 1 && pieces.every((p) => p.split(/\s+/u).length >= 2) ? pieces : [clause];
}

export function isImperative(clause: string): boolean {
  const verb = leadingVerb(clause);
  return verb !== '' && IMPERATIVE_VERBS.has(verb);
}

/** Phrasal tasks after "I'll": "double-check" -> check, "set up" -> install, "go through" -> review. */
function futureTask(clause: string, future: RegExpExecArray): string | null {
  const after = clause.slice(future.index + future[0].length);
  const verb = (future[2] ?? '').toLowerCase();
  if (verb === 'double' && /^-check\b/iu.test(after)) return 'check';
  if (verb === 'set' && /^\s+up\b/iu.test(after)) return 'install';
  if (verb === 'go' && /^\s+(?:through|over)\b/iu.test(after)) return 'review';
  return null;
}

/** A report that something is finished ("Switch done, ...", "Flights booked, ..."): what happened, not a choice. */
const DONE =
  /^[\p{L}-]+(?: [\p{L}-]+)? (?:is |are |all )?(?:done|booked|sorted|ordered|paid|sent|fixed|cancell?ed|delivered|installed)\b/iu;

/**
 * A choice with its object put first, the way many people write ("The parcel story we take.",
 * "Recording I skip.", "Loan I don't want."): a noun phrase, then "I" / "we" and a verb of choosing.
 */
const FRONTED_CHOICE =
  /^(?!(?:what|which|that|this|it|there|here|who|how|when|where|why|so|then|and|but|if|because|since|as|all|everything|anything|something|nothing)\b)(?:[\p{L}\p{N}'-]+\s+){1,4}(?:i|we)\s+(?:(?:don't|do not|won't|will not|will|'ll)\s+)?(?:take|skip|choose|pick|want|keep|start|drop|leave|use|book|buy)\b/iu;

/** The plain present of a task verb with a time, a non-native way to state a task ("I send the form on Monday."). */
const PRESENT_TASK = new RegExp(`\\b(?:i|we) (?:${[...TASK_VERBS].join('|')})\\b`, 'iu');

function userDecisionOrAction(clause: string, ctx: ClauseContext): Classified | null {
  const timed = TASK_TIME.test(clause);
  if (DONE.test(clause)) return null;
  if (ACTION.test(clause)) return { category: 'Action Items', cue: 'action' };
  const future = FUTURE_VERB.exec(clause);
  if (future && /'ll| will| shall|going to/iu.test(future[0]) && !/^(?:be|let|see)$/iu.test(future[2] ?? '')) {
    const verb = futureTask(clause, future) ?? (future[2] ?? '').toLowerCase();
    // "I'll ask for €76k" chooses an amount; "I'll ask about the trial week" is a task.
    const amount = /[€$£¥]\s?\d|\d+(?:[.,]\d+)?\s?(?:k|%)(?!\p{L})/u.test(clause);
    // "I'm going to walk the dog in the morning instead of my partner" chooses who does it.
    const chooses = /\binstead\b|\brather than\b/iu.test(clause);
    if (!future[1] && !chooses && (timed || ((TASK_VERBS.has(verb) || FUTURE_TASK_VERBS.has(verb)) && !amount)))
      return { category: 'Action Items', cue: `future-task:${verb}` };
    return { category: 'Decisions', cue: `future-choice:${verb}` };
  }
  // "Let me check the optimized version" is the person's own next step, as "I'll check ..." is; "let"
  // opening the clause is no imperative choice (a real export's "Let me check ..." was a Decision).
  const letMe = /^let me\s+([a-z]+)\b/iu.exec(clause.replace(LEADING_FRAME, ''));
  if (letMe) {
    const verb = letMe[1]!.toLowerCase();
    if (TASK_VERBS.has(verb) || FUTURE_TASK_VERBS.has(verb)) return { category: 'Action Items', cue: `let-me-task:${verb}` };
    if (CHOICE_VERBS.has(verb)) return { category: 'Decisions', cue: `let-me-choice:${verb}` };
    // "Let me think about it" / "let me sleep on it": an open, tentative plan.
    if (/^(?:think|consider|mull|sleep|weigh)$/u.test(verb))
      return { category: 'Provisional/Exploratory', cue: `let-me-tentative:${verb}` };
    return null;
  }
  if (ctx.decidedSentence || DECISION.test(clause)) return { category: 'Decisions', cue: 'decision' };
  if (NEGATED_CHOICE.test(clause)) return { category: 'Decisions', cue: 'negated-choice' };
  if (NO_THING.test(clause.replace(/[.!]+$/u, '')) && clause.split(/\s+/u).length <= 5) return { category: 'Decisions', cue: 'no-thing' };
  if (X_NOT_Y.test(clause) && !TASTE.test(clause)) return { category: 'Decisions', cue: 'x-not-y' };
  if (REFUSAL.test(clause) || TURNED_DOWN.test(clause)) return { category: 'Decisions', cue: 'refusal' };
  if ((timed || /^first\b/iu.test(clause)) && PRESENT_TASK.test(clause) && !HABIT.test(clause))
    return { category: 'Action Items', cue: 'present-task' };
  if (FRONTED_CHOICE.test(clause)) return { category: 'Decisions', cue: 'fronted-choice' };
  const present = PRESENT_CHOICE.exec(clause);
  // "We do store X": an emphatic "do" before a verb states a fact.
  const emphatic =
    present !== null &&
    /\bdo$/iu.test(present[0]) &&
    BASE_VERBS.has(
      clause
        .slice(present.index + present[0].length)
        .trim()
        .split(/\s+/u)[0]
        ?.toLowerCase() ?? '',
    );
  if (present && !emphatic && (/take|stop|choose|pick|skip|switch/iu.test(present[0]) || !HABIT.test(clause))) {
    return { category: 'Decisions', cue: 'present-choice' };
  }
  // "Booking the inspection on Thursday" is a task; "Leaving on 12 July" is the itinerary.
  if (
    /^\p{L}+ing\b/u.test(clause) &&
    timed &&
    !/^(?:leaving|arriving|flying|landing|departing|returning|travell?ing|back)\b/iu.test(clause)
  ) {
    return { category: 'Action Items', cue: 'gerund-timed' };
  }
  const verb = leadingVerb(clause);
  if (verb && IMPERATIVE_VERBS.has(verb)) {
    if (TASK_VERBS.has(verb) || timed) return { category: 'Action Items', cue: `imperative-task:${verb}` };
    return { category: 'Decisions', cue: `imperative-choice:${verb}` };
  }
  const main = withoutReason(clause);
  if (
    isVerbless(main) &&
    !/^\p{L}+ing\b/u.test(clause) &&
    SCHEDULE.test(main) &&
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
  if (REPORTED.test(withoutReason(clause)) && !/^(?:i|we)\b/iu.test(clause)) return { category: 'Facts', cue: 'reported' };
  if (isHedged(clause) || CONDITIONAL.test(clause)) return { category: 'Provisional/Exploratory', cue: 'hedge' };
  if (QUANTITY_LIMIT.test(clause) && CONSTRAINT.test(clause) && !ctx.decidedSentence) return { category: 'Constraints', cue: 'limit' };
  if (USER_CONSTRAINT.test(clause) && !ctx.decidedSentence) return { category: 'Constraints', cue: 'user-constraint' };
  if (/^never\b/iu.test(clause)) return { category: 'Constraints', cue: 'never' };
  const chosen = userDecisionOrAction(clause, ctx);
  if (chosen) return chosen;
  if (CONSTRAINT.test(clause) || DIET.test(clause)) return { category: 'Constraints', cue: 'constraint' };
  if (USER_SOFT.test(clause)) return { category: 'Provisional/Exploratory', cue: 'soft' };
  return { category: 'Facts', cue: 'fact' };
}

/** A limit with a measure or a window ("at least 90 cm", "no more than 10%", "within 5 days", "only when"). */
const MEASURED_LIMIT =
  /\b(?:at least|at most|no more than|no less than|max(?:imum)?|min(?:imum)?) (?:[€$£]\s?)?\d[\d.,]*\s?(?:%|cm|mm|m|m2|m3|km|kg|g|l|ml|°c?|degrees|bar|gb|mb|tb|kwh|w|v|€|\$|£|k)(?![\p{L}\p{N}])|\bwithin \d|\bonly (?:when|if|after|before|in|on|with)\b/iu;

/**
 * Advice opening with a verb the verb lists do not hold ("Tighten the brass nut ...", "Unscrew it
 * by hand ..."): a first word, then an object ("it", "the", "your" ...). Words that open a noun
 * phrase or modify one ("Most the", "Usually the") are not verbs.
 */
const UNLISTED_IMPERATIVE =
  /^(?!(?:the|a|an|this|that|these|those|it|its|your|my|our|their|his|her|there|here|some|any|each|every|most|many|all|both|no|one|two|three|only|even|also|just|still|like|unlike|including|not|and|or|but|so|then|now|yes|ok|for|from|with|without|within|in|on|at|by|to|of|into|onto|about|after|before|during|over|under|between|through|per|via|as|than|while|until|since|because|if|when|once|whether|get)\b)(?![a-z]+(?:ly|ing|ed|s)\b)[a-z]{3,} (?:it|the|a|an|your|them|these|those)\b/iu;

function assistantClause(clause: string, ctx: ClauseContext): Classified {
  const body = clause.replace(LEADING_FRAME, '');
  if (/^(?:don't|do not|never|only)\b/iu.test(body)) return { category: 'Constraints', cue: 'prohibition' };
  // Advice in the imperative is an Idea unless it sets a measured limit ("Make the door at least 90 cm wide.").
  if (isImperative(clause) || UNLISTED_IMPERATIVE.test(body)) {
    return MEASURED_LIMIT.test(body) ? { category: 'Constraints', cue: 'measured-limit' } : { category: 'Ideas', cue: 'imperative' };
  }
  if (STRONG_CONSTRAINT.test(body) || MEASURED_LIMIT.test(body)) return { category: 'Constraints', cue: 'strong-constraint' };
  if (SUGGESTION.test(clause) || /^avoid\b/iu.test(clause)) return { category: 'Ideas', cue: 'suggestion' };
  if (HEDGE.test(clause)) return { category: 'Provisional/Exploratory', cue: 'hedge' };
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
  const stripped = clause.replace(TOPIC_REQUEST, '').replace(OPENER_HEAD, '');
  return stripped.replace(/\?\s*$/u, '.').trim() || clause;
}
