/**
 * Cue phrases of the rule-based extractor and the validator. Kept as data in one place so the
 * rules can be read and tuned without reading the code that applies them.
 */
const words = (list: string): RegExp => new RegExp(`\\b(?:${list})\\b`, 'iu');

/** Vague or exploratory language: such a unit goes to Provisional/Exploratory, never tightened. */
export const HEDGE = words(
  [
    'maybe',
    'perhaps',
    'possibly',
    'probably',
    'might',
    'may be',
    'could be',
    'i think',
    'i guess',
    'i suppose',
    'i wonder',
    'i feel like',
    'not sure',
    'unsure',
    'kind of',
    'sort of',
    'seems?',
    'what if',
    'thinking about',
    'thinking of',
    'considering',
    'toying with',
    'brainstorm(?:ing)?',
    'idea is',
    'hopefully',
    'in theory',
    'tentative(?:ly)?',
  ].join('|'),
);

/** A commitment to a choice. Credited as a decision only in a user's message. */
export const DECISION = words(
  [
    "(?:i|we)(?:'ve| have)? decided",
    "(?:i|we)(?:'ll| will| am going to|'re going to| are going to) go with",
    "let's go with",
    'let us go with',
    "(?:i|we)(?:'ll| will) use",
    "(?:i|we)(?:'m| am|'re| are) going with",
    '(?:i|we) (?:chose|picked|settled on|opted for|went with)',
    "(?:i|we)(?:'ll| will) stick with",
    "let's use",
    "let's do",
    "let's stick with",
    'decision(?: is|:)',
    'final answer',
    "(?:i|we)(?:'ll| will) switch to",
    "(?:i|we)(?:'re| are| am|'m) switching to",
  ].join('|'),
);

/** A limit the work must respect. */
export const CONSTRAINT = words(
  [
    'must',
    'must not',
    "mustn't",
    'cannot',
    "can't",
    'can not',
    'at most',
    'at least',
    'no more than',
    'no later than',
    'no less than',
    'required',
    'requirement',
    'has to',
    'have to',
    'limited to',
    'only (?:works|runs|supports?)',
    'not allowed',
    'budget',
    'deadline',
    'within \\d+',
    'under \\d+',
    'should never',
    'never',
  ].join('|'),
);

/** Something to do next. */
export const ACTION = words(
  [
    'need to',
    'needs to',
    'remember to',
    "don't forget",
    'to-?do',
    'next step',
    'action item',
    'follow up',
    "i'll",
    'i will',
    "i'm going to",
    'i am going to',
    "we'll",
    'we will',
    'plan to',
    'planning to',
    'going to',
    'gonna',
    'should (?:add|write|check|fix|call|ask|try|update|send|book|buy|make|finish|start)',
  ].join('|'),
);

/** An assistant suggesting rather than stating: raw material for Ideas. */
export const SUGGESTION = words(
  ['you could', 'you might', 'consider', 'i suggest', 'i recommend', 'one option', 'another option', 'try', 'you can'].join('|'),
);

/** Formulaic talk with no unit of meaning in it. */
export const PLEASANTRY = words(
  [
    'hi',
    'hey',
    'hello',
    'thanks?',
    'thank you',
    'good to see you',
    'nice to (?:see|meet|hear)',
    'great to (?:see|hear)',
    'how are you',
    "how's it going",
    "what's up",
    'how have you been',
    'take care',
    'bye',
    'see you',
    'talk (?:to you )?(?:soon|later)',
    'congrat(?:s|ulations)',
    'wow',
    'awesome',
    'cool',
    'sounds? (?:great|good|fun|amazing|awesome)',
    "that's (?:great|amazing|awesome|so cool|wonderful|cool)",
    'you too',
    'glad',
    'happy to help',
    'no problem',
    "you're welcome",
    'of course',
    'sure',
  ].join('|'),
);

/** Leading discourse markers that carry nothing ("So, ", "Well, ", "Honestly, "). */
export const LEADING_FILLER =
  /^(?:(?:so|well|oh|ah|um|uh|yeah|yes|no|okay|ok|actually|honestly|basically|anyway|by the way|btw|also|and|but|plus|wow|hey|haha|lol|right|sure|great|totally|absolutely|definitely)\b[,!.]?\s+)+/iu;

/** Intensifiers and softeners dropped when a sentence is over the word limit. */
export const DROPPABLE_WORDS =
  /\b(?:really|very|so|just|actually|totally|super|definitely|pretty|quite|literally|basically|truly|absolutely|honestly|incredibly|extremely|kinda|simply|certainly|also|even)\b\s*/giu;
