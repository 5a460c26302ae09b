import type { Role } from '../records';
import { PLEASANTRY } from './cues';
import { contentWords } from './words';

/**
 * What is never a unit: placeholders (`[image: file-...]`), bare ids, links, code-only lines,
 * pleasantries and acknowledgements, and the assistant's small talk (offers, check-ins,
 * signposting, praise of the person's choice, questions back to the person).
 */
const PLACEHOLDER = /\[(?:image|file|attachment|audio|video|photo|screenshot|pdf|document|sticker|gif)\b[^\]]*\]/giu;
const URL = /\b(?:https?:\/\/|www\.)\S+/giu;
/** Long machine ids: UUIDs, hex digests, and tokens of 16+ characters mixing letters and digits (`file-Q7mR2vXk9LpT4sNa8WcE1y`). */
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/giu;
const HEX = /\b[0-9a-f]{12,}\b/giu;
const TOKEN_ID = /(?<![\p{L}\p{N}])(?:[a-z]+[-_])?(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{16,}(?![\p{L}\p{N}])/gu;

/** The sentence without placeholders, links and bare ids (inline code keeps its text). */
export function cleanSentence(sentence: string): string {
  const linked = sentence.match(URL) !== null;
  const cleaned = sentence
    .replace(PLACEHOLDER, ' ')
    .replace(URL, ' ')
    .replace(UUID, ' ')
    .replace(TOKEN_ID, ' ')
    .replace(HEX, ' ')
    .replace(/\(\s+\)|\[\s+\]/gu, ' ');
  // "see <link>." without its link: the pointer goes too.
  return (linked ? cleaned.replace(/[,;:]?\s*\b(?:see|at|here|via|from)\s*([.!?]?)\s*$/iu, '$1') : cleaned)
    .replace(/\s+([.,;:!?])/gu, '$1')
    .replace(/\s{2,}/gu, ' ')
    .replace(/^[\s,;:.–—-]+/u, '')
    .trim();
}

const COMMAND =
  /^(?:\$\s|>>>\s|(?:npm|npx|pnpm|yarn|pip|pip3|git|cd|sudo|apt|apt-get|brew|docker|kubectl|curl|wget|cargo)\s|go (?:run|build|test|get|mod|install|fmt|vet)\b|python3? (?:-\w|\S+\.py\b)|node (?:-\w|\S+\.[cm]?[jt]s\b))/u;
const CODE_START = /^(?:select|create|insert|update|delete|drop|alter)\s.+(?:from|table|index|into|set|where)\b/iu;
/**
 * Declarations and imports as code writes them, never as a person does: a keyword alone is not
 * code ("def f(" but not "def not kindle", "import os" but not "import the contacts first").
 */
const DECLARATION = String.raw`(?:async\s+)?def\s+\w+\s*\(|(?:const|let|var)\s+[\w$]+\s*[=:;]|function\*?\s+[\w$]*\s*\(|export\s+(?:default|const|function|class|type|interface|async|let|\{)|(?:public|private|protected)\s+(?:static\s+)?[\w<>[\]]+\s+\w+\s*[({;=]|(?:fn|func)\s+\w+\s*[(<]|class\s+\w+\s*[({:]|import\s+[\w.]+(?:\s+as\s+\w+)?\s*;?\s*$|import\s+.+\s+from\s+['"]|import\s+['"][^'"]+['"]\s*;?\s*$|from\s+\S+\s+import\b`;
/** A sentence that opens like code ("const x =", "def f(", "return x;", "#include <stdio.h>"). */
const KEYWORD_START = new RegExp(String.raw`^(?:${DECLARATION}|return\s.*;\s*$|#include\s*[<"])`, 'u');

/**
 * A line that is code, a shell command or raw data rather than prose. A keyword alone is not code:
 * "go with the blue one", "let me know", "Return the old one", "def not kindle" are a person's words.
 */
export function isCodeLike(sentence: string): boolean {
  const s = sentence.trim();
  if (/^`[^`]+`[.!?]?$/u.test(s)) return true;
  if (COMMAND.test(s) || CODE_START.test(s) || KEYWORD_START.test(s)) return true;
  // CSV rows and identifiers lists: commas without spaces.
  if (/^[^\s,]+(?:,[^\s,]*){2,}$/u.test(s)) return true;
  const symbols = (s.match(/[{}()[\];=<>|&$\\]/gu) ?? []).length;
  const letters = (s.match(/\p{L}/gu) ?? []).length;
  return s.length > 0 && (letters / s.length < 0.45 || symbols / s.length > 0.12);
}

/** A line of code outside a fence: a definition, a control line, an assignment, a statement keyword. */
const CODE_LINE = new RegExp(
  String.raw`^\s*(?:${DECLARATION}|for\s+[\w, ]+\s+in\s+.+:\s*$|(?:if|elif|while)\s+.*(?:==|!=|<=|>=|[<>(]|\bis\b|\bnot\b|\bin\b).*:\s*$|with\s+.*\bas\s+\w+\s*:\s*$|(?:try|else|finally)\s*:\s*$|except\b[^:]*:\s*$|(?:pass|break|continue)\s*;?\s*$|(?:return|yield|raise)(?:\s*;?\s*$|\s+[\w.]+\s*[([;]|\s+(?:None|True|False|null|undefined|this|self|\d+)\s*;?\s*$)|@[\w.]+(?:\(.*\))?\s*$|[}\])]+[;,]?\s*$|[A-Za-z_][\w.]*(?:\[[^\]]*\])?\s*[+\-*/]?=\s*[^=\s])`,
  'u',
);

/**
 * The message without code that was pasted outside a fence: code-like lines, and the indented
 * lines that follow one (the body of a pasted function). Fenced blocks are left to the splitter.
 */
export function withoutCodeLines(text: string): string {
  const out: string[] = [];
  let inCode = false;
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(?:```|~~~)/u.test(line)) fenced = !fenced;
    if (fenced || /^\s*(?:```|~~~)/u.test(line)) {
      out.push(line);
      continue;
    }
    const indented = /^(?:\t| {2,})\S/u.test(line);
    const code: boolean = CODE_LINE.test(line) || (inCode && (indented || /^\s*(?:#.*)?$/u.test(line)));
    // A blank line inside code keeps the block open; prose closes it.
    inCode = code && (inCode || line.trim() !== '');
    out.push(code ? '' : line);
  }
  return out.join('\n');
}

/** Acknowledgements and praise with nothing else in them, or as a prefix ("Good call: ..."). */
const ACK =
  /^(?:(?:ok(?:ay)?|k|sure|yes|yeah|yep|yup|no|nope|right|fine|perfect|great|good|nice|cool|done|agreed|exactly|true|fair|indeed|absolutely|definitely|excellent|awesome|brilliant|thanks?|thank you|cheers|lol|haha|hmm|wow|please|yes please|no thanks|no thank you|no way|no idea|no clue|of course|got it|i see|makes sense|that makes sense|fair enough|love it|(?:i'll |will )?keep (?:that|it|this) in mind|sounds (?:good|great|right|fine|perfect|reasonable)|(?:that|this) (?:works|helps)(?: well)?|(?:that's|that is|this is|it's|sounds like|what a)?\s*(?:a |an )?(?:very |really )?(?:good|great|solid|nice|sound|reasonable|smart|fair|wise|excellent|perfect|lovely|clever) (?:plan|choice|idea|call|start|structure|balance|order|mix|range|catch|point|question|approach|decision|pick|one|option|foundation|pairing|setup|test|tip|shout|suggestion|thought)s?(?: overall)?|(?:don't|do not) worry|happy (?:anniversary|birthday|holidays)(?: to you(?: both| all)?)?|let's see|(?:a )?(?:short|shorter|brief|quick)(?: answer)?(?: please)?)(?:\s*[,.:;!-]+\s*|\s*$))+/iu;

/** The assistant talking about the conversation rather than its subject. */
const ASSISTANT_SMALL_TALK =
  /^(?:would you like|do you want|want me to|shall i|should i|can i help|i can (?:help|draft|write|make|prepare|put together)|let me know|feel free|i hope (?:this|that) helps|hope (?:this|that) helps|happy to help|here(?:'s| is| are)\b|below (?:is|are)\b|the following\b|sure\b|certainly\b|great question|good question|have (?:a|an) (?:great|wonderful|nice|good|lovely|fantastic|fun|safe)\b|good luck|enjoy\b|congratulations|you're welcome|you are welcome|no problem|glad (?:to|i|it)|a few (?:options|ideas|things|tips)\b|it would help (?:to see|if you)|(?:could|can) you (?:share|paste|send)|please (?:share|paste|send)|(?:some|a couple of|three|two|four) (?:options|ideas|tips)\b|i'd be (?:happy|glad) to\b|happy to\b|i'll (?:analy[sz]e|review|look|check|walk you|explain|go through|break (?:it|this) down|cover)\b|(?:go ahead and )?(?:share|paste|send) (?:the|your|it)\b|let me (?:show|explain|know|walk|break)\b|(?:key|main) (?:improvements|points|changes|takeaways|design points)\b|one more thing\b)/iu;

/** Asking to hear back, from either speaker. */
const CHECK_IN = /^(?:let (?:me|us) know|keep (?:me|us) (?:posted|updated|in the loop))\b/iu;

const TRAILING_ACK =
  /,\s*(?:no thanks|thanks|thank you|lol|haha|please|obviously|of course|done|fine|agreed|right|ok|okay|definitely|absolutely|for sure)[.!]*$/iu;

/** The leading (and trailing) acknowledgement of a sentence removed ("Good call: localStorage is..." -> "localStorage is..."). */
export function stripAcknowledgement(sentence: string): string {
  const m = ACK.exec(sentence);
  if (m && m[0].length === sentence.length) return '';
  const rest = m ? sentence.slice(m[0].length).trim() : sentence;
  return rest.replace(TRAILING_ACK, '').trim();
}

const pleasantryFree = (s: string): string => s.replace(new RegExp(PLEASANTRY.source, 'giu'), ' ');

/** What is left of a sentence that pointed at an attachment or a link ("This is the panel.", "Link for later:"). */
const POINTER = /^(?:this|that|these|here|see|link|screenshot|attached|attachment|photo|picture|image)\b/iu;

/** A sentence that only described the attachment or link it carried. */
export function pointsAtAttachment(raw: string, cleaned: string): boolean {
  const carried = (raw.match(PLACEHOLDER) ?? raw.match(URL)) !== null;
  return carried && POINTER.test(cleaned);
}

export type NoiseReason = 'empty' | 'code' | 'attachment' | 'small-talk' | 'acknowledgement' | 'few-words';

/** Why a sentence holds no unit of meaning (see the module comment), or null when it holds one. */
export function noiseReason(sentence: string, role: Role): NoiseReason | null {
  const cleaned = cleanSentence(sentence);
  if (!cleaned) return 'empty';
  if (isCodeLike(cleaned)) return 'code';
  if (pointsAtAttachment(sentence, cleaned)) return 'attachment';
  const question = /\?\s*$/u.test(cleaned);
  if (role === 'assistant' && (question || ASSISTANT_SMALL_TALK.test(cleaned))) return 'small-talk';
  // Either speaker asking to hear back ("Let me know how it goes.") talks about the conversation.
  if (CHECK_IN.test(cleaned)) return 'small-talk';
  const rest = stripAcknowledgement(cleaned);
  if (!rest) return 'acknowledgement';
  const kept = pleasantryFree(rest).trim();
  const words = contentWords(kept).length;
  if (words === 0) return 'acknowledgement';
  // A user's short question is still a question ("When should I prune it?"), "No piñata." and
  // "Decanting: no." still a choice;
  // any other statement needs two content words.
  const short = (question && role === 'user') || /^(?:so\s+)?(?:no|not|never)\s|[:,]\s*(?:no|nope|nah)\b/iu.test(kept);
  return words < (short ? 1 : 2) ? 'few-words' : null;
}

/** True for a sentence with no unit of meaning in it. */
export function isNoise(sentence: string, role: Role): boolean {
  return noiseReason(sentence, role) !== null;
}
