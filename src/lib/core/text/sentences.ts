/**
 * The one sentence splitter (chunking and extraction). Boundaries fall after `.`, `!`, `?` or `…`
 * (plus closing quotes and brackets) followed by whitespace, at blank lines, and around block lines
 * (headings, list items, table rows). Abbreviations, initials, decimals and URLs do not end a
 * sentence; a fenced code block is one unit and is never split. Chat text (`CHAT_SENTENCES`) also
 * ends a sentence at every line break and before a lowercase start ("price. we'll go with it").
 */
export interface SentenceOptions {
  /** Every line is its own block (chat messages put one thought per line). Default false. */
  eachLine?: boolean;
  /** A dot followed by a lowercase word still ends a sentence (abbreviations excepted). Default false. */
  lowercaseStarts?: boolean;
}

export const CHAT_SENTENCES: SentenceOptions = { eachLine: true, lowercaseStarts: true };

export interface TextSpan {
  /** Offset of the first character (inclusive). */
  start: number;
  /** Offset after the last character (exclusive). */
  end: number;
}

export interface Sentence extends TextSpan {
  text: string;
  kind: 'sentence' | 'code';
}

/** Lower-cased abbreviations (without their final dot) that do not end a sentence. */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'mt',
  'ft',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'cf',
  'approx',
  'no',
  'fig',
  'vol',
  'ch',
  'sec',
  'inc',
  'ltd',
  'co',
  'corp',
  'dept',
  'est',
  'misc',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'u.s',
  'u.k',
  'a.m',
  'p.m',
  'ph.d',
  'gen',
  'gov',
  'sgt',
  'capt',
  'lt',
  'col',
  'rev',
  'hon',
]);

const NUMBERED = new Set(['fig', 'no', 'vol', 'ch', 'sec']);

const FENCE = /^ {0,3}(`{3,}|~{3,})/u;
const BLOCK_LINE = /^ {0,3}(#{1,6}\s|[-*+]\s|\d{1,3}[.)]\s|[A-Ha-h][.)]\s|>\s?|\|)/u;
const HEADING_LINE = /^ {0,3}#{1,6}\s/u;

/** Splits text into its code blocks and prose blocks (line-aligned spans). */
export function splitCodeFences(text: string): { start: number; end: number; code: boolean }[] {
  const blocks: { start: number; end: number; code: boolean }[] = [];
  let pos = 0;
  let blockStart = 0;
  let fence: string | null = null;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl === -1 ? text.length : nl;
    const line = text.slice(pos, lineEnd);
    const next = nl === -1 ? text.length + 1 : nl + 1;
    const match = FENCE.exec(line);
    if (fence === null && match) {
      if (pos > blockStart) blocks.push({ start: blockStart, end: pos, code: false });
      fence = match[1]!;
      blockStart = pos;
    } else if (fence !== null && match && match[1]!.startsWith(fence[0]!) && match[1]!.length >= fence.length) {
      fence = null;
      blocks.push({ start: blockStart, end: Math.min(next, text.length), code: true });
      blockStart = Math.min(next, text.length);
    }
    pos = next;
  }
  if (blockStart < text.length) blocks.push({ start: blockStart, end: text.length, code: fence !== null });
  return blocks;
}

function endsWithAbbreviation(text: string, dotIndex: number): boolean {
  let i = dotIndex - 1;
  while (i >= 0 && /[\p{L}.]/u.test(text[i]!)) i--;
  const word = text.slice(i + 1, dotIndex).toLowerCase();
  if (word.length === 0) return false;
  // "Q2U." or "26°C." ends a longer token: not an initial.
  if (i >= 0 && !/[\s("'“‘[]/u.test(text[i]!)) return false;
  // "fig." and "no." abbreviate only before a number ("Fig. 3", "No. 5"); "the fig. Grow" ends a sentence.
  if (NUMBERED.has(word)) return /^\s*\d/u.test(text.slice(dotIndex + 1));
  if (ABBREVIATIONS.has(word)) return true;
  // A single letter ("J. K. Rowling") or dotted initials ("U.S.A").
  return /^\p{L}$/u.test(word) || /^(\p{L}\.)+\p{L}$/u.test(word);
}

const CLOSERS = /["'”’)\]*_]/u;

/** Offsets (exclusive ends) of sentence boundaries inside one prose line group. */
function proseBoundaries(text: string, start: number, end: number, lowercaseStarts: boolean): number[] {
  const cuts: number[] = [];
  for (let i = start; i < end; i++) {
    const ch = text[i]!;
    if (ch !== '.' && ch !== '!' && ch !== '?' && ch !== '…') continue;
    let j = i + 1;
    while (j < end && (text[j] === '.' || text[j] === '!' || text[j] === '?' || text[j] === '…')) j++;
    while (j < end && CLOSERS.test(text[j]!)) j++;
    if (j < end && !/\s/u.test(text[j]!)) {
      i = j - 1;
      continue; // "3.14", "example.com/a.b", "e.g.x": no whitespace after, no boundary
    }
    if (ch === '.' && j === i + 1 && endsWithAbbreviation(text, i)) continue;
    // "1. Grafana Loki": the dot of a numbered list's marker ends no sentence.
    if (ch === '.' && j === i + 1 && /^ {0,3}\d{1,3}$/u.test(text.slice(text.lastIndexOf('\n', i - 1) + 1, i))) continue;
    let k = j;
    while (k < end && /\s/u.test(text[k]!)) k++;
    // A lowercase continuation after an ellipsis or a dot is rarely a new sentence.
    if (!lowercaseStarts && k < end && ch !== '!' && ch !== '?' && /\p{Ll}/u.test(text[k]!)) continue;
    cuts.push(j);
    i = j - 1;
  }
  return cuts;
}

/** Line-group spans in a prose block: blank lines and block lines (headings, items) separate. */
function lineGroups(text: string, start: number, end: number, eachLine: boolean): TextSpan[] {
  const groups: TextSpan[] = [];
  let groupStart = -1;
  let pos = start;
  while (pos < end) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl === -1 || nl >= end ? end : nl;
    const line = text.slice(pos, lineEnd);
    const blank = line.trim().length === 0;
    const block = eachLine || BLOCK_LINE.test(line);
    if (blank || block) {
      if (groupStart !== -1) groups.push({ start: groupStart, end: pos });
      groupStart = blank ? -1 : pos;
      // A heading is a unit of its own: the line after it starts a new sentence.
      if (HEADING_LINE.test(line)) {
        groups.push({ start: pos, end: lineEnd });
        groupStart = -1;
      }
    } else if (groupStart === -1) {
      groupStart = pos;
    }
    pos = lineEnd + 1;
  }
  if (groupStart !== -1) groups.push({ start: groupStart, end });
  return groups;
}

function trimmed(text: string, start: number, end: number, kind: Sentence['kind']): Sentence | null {
  let s = start;
  let e = end;
  while (s < e && /\s/u.test(text[s]!)) s++;
  while (e > s && /\s/u.test(text[e - 1]!)) e--;
  return s < e ? { start: s, end: e, text: text.slice(s, e), kind } : null;
}

/** Sentences of `text` in order, with offsets into `text` (whitespace between them excluded). */
export function splitSentences(text: string, options: SentenceOptions = {}): Sentence[] {
  const out: Sentence[] = [];
  for (const block of splitCodeFences(text)) {
    if (block.code) {
      const s = trimmed(text, block.start, block.end, 'code');
      if (s) out.push(s);
      continue;
    }
    for (const group of lineGroups(text, block.start, block.end, options.eachLine ?? false)) {
      let from = group.start;
      for (const cut of proseBoundaries(text, group.start, group.end, options.lowercaseStarts ?? false)) {
        const s = trimmed(text, from, cut, 'sentence');
        if (s) out.push(s);
        from = cut;
      }
      const s = trimmed(text, from, group.end, 'sentence');
      if (s) out.push(s);
    }
  }
  return out;
}

const LIST_MARKER = /^\s*(?:[-*+•]|\d+[.)]|[A-Ha-h][.)]|#{1,6}|>)\s+/u;
const EMPHASIS = /(\*\*|__|\*|_)(\S(?:.*?\S)?)\1/gu;
const INLINE_CODE = /`([^`]+)`/gu;
const MD_LINK = /\[([^\]]+)\]\([^)]+\)/gu;

/** A line without its markdown markers: list bullet, heading hashes, emphasis, link targets. */
export function stripMarkdown(line: string): string {
  return line.replace(LIST_MARKER, '').replace(MD_LINK, '$1').replace(EMPHASIS, '$2').trim();
}

export interface ChatSentence {
  text: string;
  /** The sentence opens a list item ("- ...", "1. ..."). */
  listItem: boolean;
  /** The sentence sits on a markdown quote line ("> ..."): words quoted from someone else. */
  quoted: boolean;
}

/** The prose sentences of a chat message with their list-item flag: code blocks left out, markdown stripped (inline code keeps its backticks). */
export function chatSentences(text: string): ChatSentence[] {
  return splitSentences(text, CHAT_SENTENCES)
    .filter((s) => s.kind === 'sentence')
    .map((s) => ({
      text: stripMarkdown(s.text).replace(/\s+/gu, ' '),
      listItem: /^\s*(?:[-*+•]|\d+[.)]|[A-Ha-h][.)])\s+/u.test(s.text),
      quoted: /^ {0,3}>/u.test(text.slice(text.lastIndexOf('\n', s.start - 1) + 1, s.start + 1)),
    }))
    .filter((s) => s.text.length > 0);
}

/** The prose sentences of a chat message, in order (see `chatSentences`). */
export function proseSentences(text: string): string[] {
  return chatSentences(text).map((s) => s.text);
}

/** Inline code spans of a sentence replaced by their text (for display); see `proseSentences`. */
export function withoutBackticks(sentence: string): string {
  return sentence.replace(INLINE_CODE, '$1');
}
