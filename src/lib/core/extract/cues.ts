/**
 * Cue phrases of the rule-based extractor and the validator. Kept as data in one place so the
 * rules can be read and tuned without reading the code that applies them.
 */
// `^` as well as `\b` before the list: an anchored cue ("^... it is") also matches a sentence that
// opens with a symbol ("€350 it is."). After it, a word boundary only where the cue ends in a
// letter or digit: a cue ending in ":" ("Budget:", "Options:") is followed by a space.
const words = (list: string): RegExp => new RegExp(`(?:^|\\b)(?:${list})(?:\\b|(?<![\\p{L}\\p{N}_]))`, 'iu');

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
    "(?:i|we)(?:'m| am| was| were) wondering",
    'tempted',
    "(?:we|i)(?:'ll| will) see\\b",
    'subject to',
    '(?:is|looks|sounds) tempting',
    '(?:feels|felt) like',
    'i was thinking',
    '(?:is|are|seems) likely',
    'prob',
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
    'leaning (?:towards?|to)',
    "(?:i'd|i would|we'd|we would) rather",
    'most likely',
    'ideally',
  ].join('|'),
);

/** A trailing purpose or result ("..., so it still feels like a hedge"). */
const PURPOSE_TAIL = /,?\s+so (?:that )?(?:it|we|i|they|you|he|she)\b.*$/iu;

/** Hedged in what it states: a hedge inside a trailing purpose ("Make it 2.5 so it still feels like a hedge") does not count. */
export function isHedged(text: string): boolean {
  return HEDGE.test(text.replace(PURPOSE_TAIL, ''));
}

const phrases = (list: readonly string[]): RegExp => new RegExp(`(?:${list.join('|')})`, 'iu');

/** A commitment to a choice, wherever it sits in the sentence. Credited as a decision only in a user's message. */
export const DECISION = words(
  [
    "(?:i|we)(?:'ve| have)? (?:decided|settled on|opted for|chose|picked|went with|ended up (?:with|going with|choosing))",
    'decided',
    'decision(?: is|:)',
    '(?:i|we) decide (?:for|on|to)',
    'is final(?=\\s*[:.!,]|$)',
    'final (?:decision|answer|choice)',
    'settled on',
    "(?:i|we)(?:'m| am|'re| are) (?:going with|going for|sticking with|switching to)",
    'going (?:with|for)',
    'sticking (?:with|to)',
    "(?:i|we)(?:'ve| have)? agreed (?:on|to)",
    "(?:i|we)(?:'ll| will| shall)? (?:go|stick) (?:with|for)",
    'go with',
    "let(?:'s| us)(?! (?:see|talk|chat|think|hope|say|discuss|check|look|figure|catch up|keep \\w+ing|start with the basics)\\b)",
    '^(?:\\S+ ){1,5}it is(?:,? then)?(?=\\s*(?:[.!,]|$))',
    'as you (?:said|suggested|recommended|proposed)',
    'rather than',
    'from (?:tonight|today|tomorrow|now)',
    'starting (?:tonight|today|tomorrow|now|next (?:week|month))',
    "it's settled",
    '(?:is|are) out',
    'off the table',
    'not this (?:quarter|year|month|week|sprint|round|time)',
    '(?:stays|remains)',
    'instead',
    'over (?:the )?[a-z]+,? agreed',
    "we(?:'re| are) doing",
    "(?:i|we)(?:'m| am|'re| are) (?:using|choosing|picking|skipping|dropping|keeping)",
    'from now on',
    'going forward',
    'from (?:today|tomorrow) on',
  ].join('|'),
);

/** `I'll` / `we'll` (or going to, or the plain present of a non-native "we take") and the verb after it. */
export const FUTURE_VERB =
  /\b(?:i|we)(?:'ll| will| shall|'re going to| are going to|'m going to| am going to|'d)?\s+(?:also\s+|then\s+|just\s+|definitely\s+)?(not\s+)?([a-z]+)\b/iu;

/** Verbs that choose: after "I'll" / "we'll" / "let's", or opening a user's imperative, they make a Decision. */
export const CHOICE_VERBS: ReadonlySet<string> = new Set(
  (
    'use stay take skip keep buy get go switch stick choose pick do have combine add make move drop cancel start stop rent ' +
    'set turn run cap price limit leave swap replace bake serve host record migrate import automate split group ' +
    'offer charge raise lower release publish ship build adopt plant grow hire hold sell scratch'
  ).split(' '),
);

/** Verbs of a task to carry out: after "I'll" or opening a user's imperative they make an Action Item. */
export const TASK_VERBS: ReadonlySet<string> = new Set(
  (
    'call email text message phone ring send book order ask check measure write draft finish fix test clean print ' +
    'sign register file pay renew return collect defrost review read research look find reply tell remind ' +
    'visit contact schedule update install open prepare practise practice submit upload download back label put try forward'
  ).split(' '),
);

/** Verbs that are a task only after "I'll" / "we'll" ("I'll grab a slot"); opening a clause they are often nouns ("Grab rails ..."). */
export const FUTURE_TASK_VERBS: ReadonlySet<string> = new Set('grab pop brief block'.split(' '));

/** A time by which or at which something happens: turns "I'll buy X" from a choice into a task. */
export const TASK_TIME = words(
  [
    'today',
    'tonight',
    'tomorrow(?: morning| evening| night)?',
    'this (?:morning|afternoon|evening|week|weekend|month)',
    'next (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)',
    '(?:on|by|before|until) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)',
    'by (?:the )?(?:end of|\\d)',
    'first thing',
    'asap',
    'later today',
    'in the morning',
    'first(?=[.!]?$)',
    '(?:on|by|before) (?:the )?\\d{1,2}(?:st|nd|rd|th)',
    '(?:on|by|before) (?:the )?\\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\\w*',
    'on payday',
    'next weekend',
    '(?:mon|tues|wednes|thurs|fri|satur|sun)day (?:morning|afternoon|evening|night)',
    'when (?:i|we) get paid',
    'the (?:day|night|week) before',
    'beforehand',
    'tmrw',
    'tmr',
  ].join('|'),
);

/** Something to do next, in the person's own words. */
export const ACTION = words(
  [
    '(?:i|we) (?:need|have|must|should|got|ought) to',
    "(?:i|we)(?:'ve| have) got to",
    '^need to',
    '^have to',
    'remember to',
    "don't forget",
    'do not forget',
    'reminder',
    'note to self',
    'to[- ]?do(?=\\s*:)',
    'to-?do',
    'next step',
    'action item',
    'i must',
  ].join('|'),
);

/** A limit any solution must respect (either speaker). */
export const CONSTRAINT = words(
  [
    'must(?!-)',
    "mustn't",
    'can only',
    'only if',
    'at most',
    'at least',
    'the (?:most|least) (?:we|i)',
    'no more than',
    'no less than',
    'max(?:imum)?',
    'min(?:imum)?',
    'up to',
    'within',
    'no later than',
    'deadline',
    // A budget as a limit ("budget is ~£50/mo", "a €3,000 budget"), not a passing mention ("of the budget").
    'budget(?:\\s*(?:is|was|of|at|around|under|cap|limit)\\b|\\s*:)',
    '(?:[€$£]\\s?\\d[\\d.,]*\\s?k?|\\d[\\d.,]*\\s?(?:k|euros?|dollars?|pounds?))(?:\\s*(?:a|per)\\s*\\w+)? budget',
    '(?:stay|keep it|be) (?:within|under|on) (?:the |our |my )?budget',
    'not allowed',
    'only allows?',
    'requires?',
    'required',
    'requirement',
    'permission',
    'has to',
    'have to',
    'needs? to',
    'strict',
    'allerg(?:y|ies|ic)',
    'should (?:be|stay|not|never)',
    '(?:under|below) \\d',
    'excluded',
    // A diet as a requirement ("we need gluten free", "it has to be vegan"), not a food described ("paella is naturally gluten-free").
    '(?:need|needs|must be|has to be|have to be|only) (?:\\w+ )?(?:nut|gluten|dairy)[- ]free',
    '(?:need|needs|must be|has to be|have to be|only) vegan',
    '^only',
    "^(?:don't|do not|never)",
    '(?:i|we) never',
  ].join('|'),
);

/** Limits only the person states about their own situation ("She refuses anything with fish."). */
export const USER_CONSTRAINT = words(
  [
    'cannot',
    "can't",
    'can not',
    'refuses?',
    "won't (?:eat|touch|drink|accept|take|wear)",
    'promised',
    'stuck (?:on|with) .+ until',
    'non-negotiable',
    'no exceptions?',
    'walk away',
    'deal-?breaker',
    "(?:doesn't|does not|don't|do not) (?:eat|drink|allow)",
    '(?:is|are) the limit',
    'the limit is',
    '(?:is|are) fixed',
    'no time (?:for|to|after|during|in)',
    "(?:i'm|i am|we're|we are) only",
    'must-have',
  ].join('|'),
);

/** A diet the person keeps to ("The whole party is nut-free."): a limit in their own words, not in the assistant's food facts. */
export const DIET = words(['(?:nut|gluten|dairy)[- ]free', 'vegan'].join('|'));

/** Limits stated firmly enough to beat an imperative's reading as advice ("Never run drip and sprinklers together."). */
export const STRONG_CONSTRAINT = phrases([
  "\\b(?:must(?!-)|mustn't|can only|only if|no more than|no less than|no later than|requires?|required|permission|not allowed)\\b",
  '\\bwithin \\d',
  '\\ballows? \\w+ only\\b',
  "^(?:never|don't|do not|only)\\b",
]);

/** An inline list of options after a colon ("Options: a mesh, a powerline adapter, or a cable."). */
export const OPTION_LIST = /:\s*[^:]+,[^:]+\b(?:or|and)\b/iu; // a quick test; rule-based.ts confirms with splitList

/** The assistant proposing rather than stating: Ideas. */
export const SUGGESTION = words(
  [
    'you (?:could|might|may)(?: also)?',
    'you can also',
    "you(?:'d| would|'ll) (?:want|like|do well)",
    'you can (?!(?:also|not|never|always|still|only|usually|expect|see|tell|leave|cancel|get|find|buy|use)\\b)[a-z]+',
    'consider',
    "(?:i'd|i would|i) (?:recommend|suggest|go with|pick|choose|start with)",
    "^(?:i'd|i would) (?!(?:be|love|like|say|need|have|expect|guess|imagine|think)\\b)[a-z]+",
    'try',
    'one option',
    'another option',
    'options?:',
    'alternatives?',
    'alternatively',
    'a good (?:option|choice|fit|start|idea|bet|pick)',
    '(?:a|the) (?:popular|common|usual|classic|safe|solid|standard) (?:choice|option|split|pick|combination|setup|first \\w+|pairing)',
    'works? (?:best|well|fine)(?!\\s+with)',
    'fits?(?: (?:well|best|you))?(?=[.!]?$)',
    'would (?:suit|fit|work)',
    'best (?:bet|choice|option|pick)',
    '(?:the|a) (?:better|safer|safest|simpler|easier|cheaper|natural|nice|good) (?:pick|fit|choice|option|all-rounder|bet|partner|middle ground)',
    'is the (?:reliable|easiest|simplest|best|safest|cheapest) (?:fix|way|option|choice|route)',
    'for example',
    'such as',
    "let(?:'s| us)",
    'should',
    "it(?:'s| is) worth",
    'make sure',
    'structure:',
    'the key is',
  ].join('|'),
);

/** Someone else's choice or words, reported: a Fact, never the person's Decision. */
export const REPORTED = phrases([
  "\\b(?:my|our|his|her|their|the|a|(?!(?:it|that|what|here|there|let|he|she|who)'s)[\\p{L}-]+'s)\\s+(?:[\\p{L}'-]+\\s+){0,3}?(?:(?:has|have|had)\\s+)?(?:decided|chose|picked|went with|says|said|thinks|thought|reckons|wants|told me|suggested|recommends?|recommended|got|adopted|built|had|asks|reset|approved|agreed|advised|rejected|vetoed|signed off)\\b",
  '\\b(?:he|she|they)\\s+(?:\\w+\\s+)?(?:decided|chose|picked|went with|says|said|thinks|reckons|got|adopted|built|approved|agreed|advised)\\b',
  "^(?!(?:i|we|you|just|then|so|also|finally|and|but)\\b)(?:[\\p{L}'-]+\\s+){1,2}(?:approved|advised|vetoed|rejected|signed off|reckons|insists|suggested|recommended|says|said|thinks|wants)\\b",
]);

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
    'no worries',
    'long time no (?:see|talk|chat)',
    "you're welcome",
    'of course',
    'sure',
    'woo+hoo+',
    'yay',
    'keep (?:it|that) up',
    'keep up the (?:\\w+ )?(?:work|job)',
    'keep (?:on )?(?:going|pushing|trying|smiling|dreaming|at it)',
    'take courage',
    'good luck',
    "i'll let you know",
    'let you know',
    'take a look(?: at (?:this|that|it))?',
    'check (?:this|it) out',
  ].join('|'),
);

/** Leading discourse markers that carry nothing ("So, ", "Well, ", "Honestly, "). "No" only as "No," (a refusal), never "No car". */
export const LEADING_FILLER =
  /^(?:(?:(?:so|well|oh|ah|um|uh|yeah|yes|okay|ok|actually|honestly|basically|anyway|by the way|btw|also|and|but|plus|wow|hey|hi|hiya|hello|haha|lol|right|sure|great|totally|absolutely|definitely|scratch that|forget that|funnily enough)\b[,!.]?|no[,!.])\s+)+/iu;

/** Intensifiers and softeners dropped when a sentence is over the word limit. */
export const DROPPABLE_WORDS =
  /\b(?:really|very|just|actually|totally|definitely|quite|literally|basically|truly|absolutely|honestly|incredibly|extremely|kinda|simply|certainly|also|even)\b\s*/giu;

/** The words `DROPPABLE_WORDS` removes: filler, which the "nothing dropped" rule does not count as content. */
export const FILLER_WORDS: ReadonlySet<string> = new Set(
  'really very just actually totally definitely quite literally basically truly absolutely honestly incredibly extremely kinda simply certainly also even'.split(
    ' ',
  ),
);
