import { chatSentences, proseSentences } from '../text/sentences';
import { adoptionOf, echoesOffer, pointsBack, suggestion, type Suggestion } from './adoption';
import {
  classifyClause,
  hasPastForm,
  isImperative,
  isNounPhrase,
  isVerbless,
  splitCoordinated,
  topicText,
  withoutReason,
  type Classified,
  type ClauseContext,
} from './classify';
import { DECISION, LEADING_FILLER, OPTION_LIST } from './cues';
import { cleanSentence, isCodeLike, isNoise, noiseReason, pointsAtAttachment, stripAcknowledgement, withoutCodeLines } from './noise';
import { splitClauses, splitList, splitSplices, splitToLimit } from './unit-text';
import type { Role } from '../records';
import { MAX_UNIT_WORDS, wordCount, type Category, type ExtractionMessage } from './units';
import type { ExtractionWindow } from './windows';
import { contentWords, restoreApostrophes } from './words';

/**
 * The segments of the rule-based extractor, with the rules' category for each. Per message:
 * sentences (code, placeholders, links and ids left out), acknowledgements and small talk dropped,
 * clauses classified by the labelling rules (`classify.ts`), a user's short reply that takes the
 * assistant's suggestion made a Decision citing the user's turn (`adoption.ts`), and every clause
 * over fifteen words split into several segments, never cut. Each segment keeps what the rules saw
 * (the cue that chose its category, its context), for tests and for reading a wrong category.
 */
export interface Segment {
  /** The unit text (at most fifteen words). */
  text: string;
  /** The rules' category and the rule that chose it. */
  category: Category;
  cue: string;
  role: Role;
  messageId: string;
  /** The clause the segment came from. */
  clause: string;
  firstUserTurn: boolean;
  decidedSentence: boolean;
  optionList: boolean;
  /** One of several clauses or pieces of its sentence. */
  piece: boolean;
}
const DECIDED_PREFIX =
  /^(?:(?:we|i)(?:'ve| have)? decided|decided|(?:final )?decision|(?:ok,? )?(?:here's|here is) the plan|the plan is|plan)\s*:\s*/iu;

/** One clause in minimum viable language: leading filler gone, "!" made a full stop. */
function tidy(clause: string): string {
  // "..., but no: we've decided on X": the "no" turns down what came before, not what follows.
  return clause
    .replace(/^no\s*[:,;]\s+(?=(?:i|we)\b)/iu, '')
    .replace(LEADING_FILLER, '')
    .replace(/!+/gu, '.')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** What an assistant message offers: its Ideas, and its other statements (options named in passing). */
export interface Offer {
  suggestions: Suggestion[];
  statements: Suggestion[];
}

const ASSISTANT: ClauseContext = { role: 'assistant', firstUserTurn: false, decidedSentence: false };

/** The assistant message's suggestions and statements, in order: what a user's "let's do that" can point at. */
export function offerOf(text: string): Offer {
  const offer: Offer = { suggestions: [], statements: [] };
  for (const sentence of proseSentences(withoutCodeLines(text))) {
    const cleaned = stripAcknowledgement(cleanSentence(sentence));
    if (!cleaned || isNoise(cleaned, 'assistant')) continue;
    const ctx = { ...ASSISTANT, optionList: isOptionList(cleaned) };
    for (const clause of clausesOf(cleaned)) {
      const whole = classifyClause(clause, ctx);
      if (!whole) continue;
      // One suggestion per unit-sized piece: "keep it somewhere warm, like the oven" can be adopted alone.
      const pieces = splitToLimit(tidy(clause));
      for (const piece of pieces) {
        const category = pieces.length > 1 ? pieceCategory(piece, whole, ctx) : whole.category;
        (category === 'Ideas' ? offer.suggestions : offer.statements).push(suggestion(piece));
      }
    }
  }
  return offer;
}

export function suggestionsOf(text: string): Suggestion[] {
  return offerOf(text).suggestions;
}

const NO_OFFER: Offer = { suggestions: [], statements: [] };

/**
 * A person's pick and the reason after it, as two units ("No dongle since I have zero free USB
 * ports." -> "No dongle" / "I have zero free USB ports"): the pick is a clause without a verb and the
 * reason a clause of its own. A reason after a clause with a verb stays with it.
 */
export function splitReason(clause: string): string[] {
  const m = /^(.+?),?\s+(?:since|because)\s+(?!of\b)(.+)$/iu.exec(clause);
  if (!m || !isVerbless(m[1]!) || isImperative(m[1]!) || wordCount(m[1]!) < 2 || wordCount(m[2]!) < 3) return [clause];
  return [m[1]!, m[2]!];
}

/**
 * The clauses of a sentence. A piece with no content word at all ("so that's it") goes back to
 * its neighbour; any other piece stays a clause even when it is short: a split never loses words.
 */
function clausesOf(sentence: string, role: Role = 'assistant'): string[] {
  const pieces = splitList(sentence)
    .flatMap((item) => splitClauses(item).flatMap((clause) => splitSplices(clause)))
    .flatMap((clause) => (role === 'user' ? splitReason(clause).flatMap((part) => splitCoordinated(part)) : [clause]));
  const out: string[] = [];
  // A piece holding a number that would be dropped on its own as noise ("€89 the" read as code, in
  // "€89 the, while ...") joins its neighbour instead (the next one when it comes first): a split
  // never loses a number. The whole sentence being noise is decided before the split.
  const losesNumber = (piece: string) => pieces.length > 1 && /\d/u.test(piece) && !['few-words', null].includes(noiseReason(piece, role));
  let waiting: string | null = null;
  for (const raw of pieces) {
    const piece: string = waiting ? `${waiting.replace(/[.!]+$/u, '')}, ${raw}` : raw;
    waiting = null;
    const empty = (contentWords(piece).length === 0 && !/\?\s*$/u.test(piece)) || losesNumber(piece);
    if (empty && out.length > 0) out[out.length - 1] = `${out.at(-1)!.replace(/[.!]+$/u, '')}, ${piece}`;
    else if (empty && losesNumber(piece)) waiting = piece;
    else out.push(piece);
  }
  if (waiting) out.push(waiting);
  return out;
}

/**
 * Too little to be a unit, unless it is the person's decision in a word ("Going with Dexie.") or a
 * piece of a longer sentence that still carries a content word ("..., it is boring for me").
 */
function isDroppable(clause: string, role: ExtractionMessage['role'], piece: boolean): boolean {
  const reason = noiseReason(clause, role);
  if (reason !== 'few-words') return reason !== null;
  return !(piece || (role === 'user' && DECISION.test(clause)));
}

interface MessageContext {
  firstUserTurn: boolean;
  offer: Offer;
}

/**
 * A piece of a split clause is read on its own ("..., which is 40 minutes by train" is a fact
 * inside a suggestion); under "Decided:", in an option list or when adopted it keeps the clause's category.
 */
function pieceCategory(piece: string, whole: Classified, ctx: ClauseContext): Category {
  if (ctx.decidedSentence || ctx.optionList || whole.cue === 'adoption') return whole.category;
  const own = classifyClause(piece, ctx);
  if (!own || (own.cue === 'fact' && isDependent(piece))) return whole.category;
  return own.category;
}

/** A piece that cannot stand alone: it opens with a connective or has no verb ("with starts 30 minutes apart"). */
function isDependent(piece: string): boolean {
  return DEPENDENT_OPENING.test(piece) || isVerbless(piece);
}

const DEPENDENT_OPENING =
  /^(?:and|but|or|so|then|if|because|since|which|who|whose|where|when|while|like|such as|with|without|for|from|to|by|at|on|in|into|after|before|until|unless|than|as|plus|including|except)\b/iu;

/** An assistant sentence that lists options after a colon, every item without a verb of its own. */
function isOptionList(sentence: string): boolean {
  if (!OPTION_LIST.test(sentence)) return false;
  const items = splitList(sentence);
  return items.length >= 3 && items.slice(1).every((item) => isVerbless(item));
}

interface ClauseSite {
  offer: Offer;
  /** The person approved the clause ("Plain index on created_at, fine."): see `assentParts`. */
  assented?: boolean;
  /** The clause is one of several of its sentence. */
  piece: boolean;
  /** The clause before it in the message, for a request that says only "help me structure it". */
  before: string | null;
}

/** A topic request too short to name its subject borrows the clause before it ("Structure it: I'm stuck on the results chapter."). */
function topicOf(text: string, before: string | null): string {
  const topic = topicText(text);
  if (contentWords(topic).length >= 2 || !before) return topic;
  const lead = /^I\b/u.test(before) ? before : `${before.charAt(0).toLowerCase()}${before.slice(1)}`;
  const joined = `${topic.replace(/[.!]+$/u, '')}: ${lead}`;
  return wordCount(joined) <= MAX_UNIT_WORDS ? joined : topic;
}

function segmentsOfClause(clause: string, message: ExtractionMessage, ctx: ClauseContext, site: ClauseSite): Segment[] {
  const { offer, piece } = site;
  let classified: Classified | null = isDroppable(clause, message.role, piece) ? null : classifyClause(clause, ctx);
  let text = tidy(clause);
  // What the person approves in a verbless reply is their choice ("Audit table yes."); a statement
  // with a verb and a "yes" ("our dates are european yes") answers a question and stays a Fact.
  if (site.assented && message.role === 'user' && !/\?\s*$/u.test(clause) && isVerbless(withoutReason(text))) {
    const bare = classified === null && noiseReason(clause, 'user') === 'few-words' && contentWords(clause).length > 0;
    if (bare || classified?.cue === 'fact') classified = { category: 'Decisions', cue: 'assent' };
  }
  const adoptable = classified === null || classified.category === 'Decisions' || classified.category === 'Facts' || pointsBack(clause);
  if (message.role === 'user' && adoptable) {
    const adopted = adoptionOf({
      clause: text,
      suggestions: offer.suggestions,
      statements: offer.statements,
      // An approval ("The rain sensor, yes.") is not the person's own wording of the choice: the adopted suggestion is.
      explicit: classified?.category === 'Decisions' && classified.cue !== 'assent',
      verbless: isVerbless(withoutReason(text)),
    });
    if (adopted) {
      classified = { category: 'Decisions', cue: 'adoption' };
      text = tidy(adopted.text);
    }
  }
  if (classified === null || !text) return [];
  // Last in the chain: the offer's pieces are gathered only for a user's verbless Fact.
  if (
    message.role === 'user' &&
    classified.cue === 'fact' &&
    isNounPhrase(withoutReason(text)) &&
    echoesOffer(text, [...offer.suggestions, ...offer.statements])
  )
    classified = { category: 'Decisions', cue: 'echo' };
  if (classified.category === 'Topics') text = topicOf(text, site.before);
  const pieces = splitToLimit(text);
  const whole = classified;
  return pieces.map((text) => ({
    text,
    category: pieces.length > 1 ? pieceCategory(text, whole, ctx) : whole.category,
    cue: whole.cue,
    role: message.role,
    messageId: message.id,
    clause: tidy(clause),
    firstUserTurn: ctx.firstUserTurn,
    decidedSentence: ctx.decidedSentence,
    optionList: ctx.optionList ?? false,
    piece: piece || pieces.length > 1,
  }));
}

/**
 * A person's approval after a clause: "X, yes." / "X, fine." / "X, agreed, Y" / "Audit table yes.".
 * Only after a clause (a leading "Yes," answers whatever was asked, so it says nothing of what follows).
 */
const ASSENT = /(?:,\s*(?:yes|yeah|yep|fine|agreed|definitely|absolutely)|\s+yes)\s*(?:([,;]|[.!]+\s*$|$)|(:))\s*/iu;

/**
 * A user sentence cut at each approval: the part before one is approved (`assented`). An approval
 * before a colon keeps its part whole ("Cycling three times a week, yes: Monday and Friday.").
 * Only a verbless part is cut off: "The landlord said yes, so ..." stays whole, its "yes" with it.
 */
function assentParts(sentence: string): { text: string; assented: boolean }[] {
  const parts: { text: string; assented: boolean }[] = [];
  let rest = sentence;
  for (let m = ASSENT.exec(rest); m && m.index > 0; m = ASSENT.exec(rest)) {
    const head = rest.slice(0, m.index);
    if (!isVerbless(withoutReason(head)) || hasPastForm(head)) break;
    const tail = rest.slice(m.index + m[0].length);
    if (m[2]) {
      parts.push({ text: `${head}: ${tail}`, assented: true });
      return parts;
    }
    parts.push({ text: `${head}.`, assented: true });
    rest = tail;
  }
  if (rest.trim()) parts.push({ text: rest, assented: false });
  return parts;
}

export function messageSegments(message: ExtractionMessage, context: MessageContext): Segment[] {
  const units: Segment[] = [];
  // After "Here's the plan:" the person's verbless lines are the plan too ("Backoff max 5 retries.").
  let planned = false;
  // Assistant list items under an intro that ends with ":" ("Here is a starting schedule:") are options.
  let introduced = false;
  let before: string | null = null;
  const sentences = chatSentences(withoutCodeLines(message.text));
  for (const [at, { text: raw, listItem, quoted }] of sentences.entries()) {
    // A quoted line ("> I'd lean to the coast") is someone else's words: no unit of this speaker's.
    if (quoted) continue;
    const listed = listItem && introduced;
    if (!listItem) introduced = /:\s*$/u.test(raw);
    // A person's "ill call him" reads as "I'll call him" (words.ts `restoreApostrophes`).
    const cleaned = cleanSentence(message.role === 'user' ? restoreApostrophes(raw) : raw);
    if (!cleaned || isCodeLike(cleaned) || pointsAtAttachment(raw, cleaned)) continue;
    // The assistant's lead-in to a list ("The usual options are:") signposts; the items carry the content.
    if (message.role === 'assistant' && !listItem && introduced && sentences[at + 1]?.listItem && !isImperative(cleaned)) continue;
    // So does a person's short heading over a list ("Swap rule:", "Budget so far:"); "Decided:" still governs the items.
    if (
      message.role === 'user' &&
      !listItem &&
      introduced &&
      sentences[at + 1]?.listItem &&
      wordCount(cleaned) <= 4 &&
      !DECIDED_PREFIX.test(cleaned)
    )
      continue;
    const parts = message.role === 'user' ? assentParts(cleaned) : [{ text: cleaned, assented: false }];
    for (const { text: sentence, assented } of parts) {
      const opensPlan = message.role === 'user' && DECIDED_PREFIX.test(sentence);
      const decidedSentence =
        opensPlan || (planned && isVerbless(sentence) && !/\?\s*$/u.test(sentence) && !/^\p{L}+ing\b/u.test(sentence));
      planned ||= opensPlan;
      const body = stripAcknowledgement(sentence.replace(DECIDED_PREFIX, ''));
      if (!body) continue;
      const optionList = message.role === 'assistant' && (listed || isOptionList(body));
      const ctx: ClauseContext = { role: message.role, firstUserTurn: context.firstUserTurn, decidedSentence, optionList };
      const clauses = clausesOf(body, message.role);
      clauses.forEach((clause, i) => {
        const site = { offer: context.offer, piece: clauses.length > 1, before, assented: assented && i === clauses.length - 1 };
        units.push(...segmentsOfClause(clause, message, ctx, site));
        before = tidy(clause);
      });
    }
  }
  return units;
}

/**
 * Segments of a window's citable messages. `conversation` (the whole thread, in order) gives each
 * message its neighbours across window edges: the assistant message a user reply answers, and
 * whether this is the person's first message.
 */
export function ruleBasedSegments(window: ExtractionWindow, conversation?: readonly ExtractionMessage[]): Segment[] {
  const thread = conversation ?? window.messages;
  const firstUser = thread.find((m) => m.role === 'user')?.id;
  const position = new Map<string, number>();
  thread.forEach((m, i) => {
    if (!position.has(m.id)) position.set(m.id, i);
  });
  const segments: Segment[] = [];
  for (const message of window.messages) {
    if (message.context) continue;
    const before = thread[(position.get(message.id) ?? 0) - 1];
    const offer = message.role === 'user' && before?.role === 'assistant' ? offerOf(before.text) : NO_OFFER;
    segments.push(...messageSegments(message, { firstUserTurn: message.id === firstUser, offer }));
  }
  return segments;
}
