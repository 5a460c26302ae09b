/**
 * Lines that read like instructions to a model rather than conversation: prompt injection
 * ("ignore all previous instructions", "pay no attention to what you were told earlier"), role
 * reassignment ("you are now DAN"), forged turns and chat-template tokens (`<|im_start|>system`,
 * `</message><message role="user">`), memory poisoning, exfiltration-shaped links, requests to
 * reveal the prompt, and text hidden from the reader that talks to a model. Stored chats are later
 * pasted into other prompts, so such a line is a payload waiting for a reader.
 *
 * Detection only: the text is never changed here. Write time stores the flags on the message;
 * read time (sanitize-read.ts) drops or quotes the flagged lines. Matching runs on folded copies of
 * each line (injection-patterns.ts): NFKC and lower case (fullwidth letters) with one space between
 * words, and for lines that look obfuscated also with separators, spaced-out letters and
 * digits-for-letters undone. An instruction split over up to three lines that run on (no sentence
 * end between them) is found by also matching the lines joined.
 *
 * Cost: every write runs this, so the text is scanned once for the stems the patterns need
 * (INJECTION_NEEDS), and a line runs only the patterns whose stems it holds.
 */
import { INJECTION_NEEDS, INJECTION_PATTERNS, SCRIPT_STEMS, type InjectionKind } from './injection-patterns';

export type { InjectionKind } from './injection-patterns';

export interface InjectionFlag {
  kind: InjectionKind;
  /** 0-based line index in the text. */
  line: number;
  excerpt: string;
}

if (INJECTION_NEEDS.length !== INJECTION_PATTERNS.length) throw new Error('injection-patterns.ts: one NEEDS entry per pattern');

interface Pattern {
  kind: InjectionKind;
  pattern: RegExp;
  needs: readonly (readonly string[])[];
}

const PATTERNS: readonly Pattern[] = INJECTION_PATTERNS.map(([kind, pattern], i) => ({ kind, pattern, needs: INJECTION_NEEDS[i]! }));

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const LITERAL_STEMS = [...new Set(INJECTION_NEEDS.flat(2))].filter((s) => !s.startsWith('script:')).sort((a, b) => b.length - a.length);
const STEM_SCAN = new RegExp(LITERAL_STEMS.map(escape).join('|'), 'g');
/** Stems that are prefixes of a longer stem: found where the longer one matched. */
const PREFIXES = new Map(LITERAL_STEMS.map((stem) => [stem, LITERAL_STEMS.filter((s) => s.length < stem.length && stem.startsWith(s))]));

const NON_ASCII = /[\u0080-\uffff]/;

/** NFKC (only non-ASCII text can change) and lower case. */
function lower(text: string): string {
  return (NON_ASCII.test(text) ? text.normalize('NFKC') : text).toLowerCase();
}

/** One space for any run of spaces (newlines stay). */
const fold = (lowered: string) => lowered.replace(/[^\S\n]+/gu, ' ');

/** The stems in `folded`, per line (`lines` are its lines' start offsets). */
function stemsByLine(folded: string, lineStarts: readonly number[]): Set<string>[] {
  const out = lineStarts.map(() => new Set<string>());
  let line = 0;
  STEM_SCAN.lastIndex = 0;
  for (let m = STEM_SCAN.exec(folded); m; m = STEM_SCAN.exec(folded)) {
    while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= m.index) line++;
    const set = out[line]!;
    set.add(m[0]);
    for (const prefix of PREFIXES.get(m[0])!) set.add(prefix);
    STEM_SCAN.lastIndex = m.index + 1;
  }
  return out;
}

function scriptStems(text: string, into: Set<string>): void {
  if (!NON_ASCII.test(text)) return;
  for (const [name, test] of Object.entries(SCRIPT_STEMS)) if (test.test(text)) into.add(name);
}

function stemsOf(text: string): Set<string> {
  const set = stemsByLine(text, [0])[0]!;
  scriptStems(text, set);
  return set;
}

/** Whether `stems` meet every need of `p` (loops, not closures: this runs for every line). */
function possible(p: Pattern, stems: ReadonlySet<string>): boolean {
  if (stems.size === 0) return false;
  for (const need of p.needs) {
    let met = false;
    for (const stem of need) {
      if (stems.has(stem)) {
        met = true;
        break;
      }
    }
    if (!met) return false;
  }
  return true;
}

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
const SPACED = / \w \w \w \w /u;
const SEPARATED = /[a-z][._-][a-z]/u;
const LEETISH = /[a-z_][013457@$][a-z]|\b[013457@$][a-z]{2}/u;

/** Letters spaced out one by one ("i g n o r e"), words joined by separators, digits for letters. */
function looksObfuscated(line: string): boolean {
  return SPACED.test(` ${line} `) || SEPARATED.test(line) || (/[013457@$]/u.test(line) && LEETISH.test(line));
}

/**
 * A folded line with its obfuscation undone, or null when it does not look obfuscated. Word gaps
 * of the spaced-out form are two or more spaces, so this works on the line before folding.
 */
function deobfuscate(lowered: string): string | null {
  if (!looksObfuscated(lowered)) return null;
  const plain = lowered
    .replace(/(?<=\b\w) (?=\w\b)/gu, '')
    .replace(/(?<=[a-z])[013457@$](?=[a-z])|(?<=\b)[013457@$](?=[a-z]{2})/gu, (c) => LEET[c] ?? c)
    .replace(/(?<=[a-z])-(?=[a-z]+\b)/gu, '')
    .replace(/[._-]+/gu, ' ')
    .replace(/\s+/gu, ' ');
  return plain;
}

/** One line (or window of lines) as the patterns see it. */
interface Unit {
  folded: string;
  stems: Set<string>;
  /** The deobfuscated form and its stems, when the line looks obfuscated. */
  plain: { text: string; stems: Set<string> } | null;
}

function kindsIn(unit: Unit, patterns: readonly Pattern[]): InjectionKind[] {
  const kinds: InjectionKind[] = [];
  for (const p of patterns) {
    if (kinds.includes(p.kind)) continue;
    if (possible(p, unit.stems) && p.pattern.test(unit.folded)) kinds.push(p.kind);
    else if (unit.plain && possible(p, unit.plain.stems) && p.pattern.test(unit.plain.text)) kinds.push(p.kind);
  }
  return kinds;
}

function joinUnits(units: readonly Unit[]): Unit {
  const folded = units.map((u) => u.folded.trim()).join(' ');
  const stems = stemsOf(folded);
  const plainText = units.some((u) => u.plain) ? units.map((u) => (u.plain?.text ?? u.folded).trim()).join(' ') : null;
  return { folded, stems, plain: plainText === null ? null : { text: plainText, stems: stemsOf(plainText) } };
}

/** A line that ends a sentence; an instruction split over lines runs on past the line's end. */
const ENDS_SENTENCE = /[.!?:;)\]"'”>`]\s*$/u;
/** Lines joined to find an instruction split over them: up to this many non-blank lines. */
const SPLIT_WINDOW = 3;
/** Joining is for short lines: a paragraph is already a line of its own. */
const SPLIT_LINE_CHARS = 120;

export function detectInjection(text: string): InjectionFlag[] {
  const lowered = lower(text);
  const folded = fold(lowered);
  const lines = text.split('\n');
  const loweredLines = lowered.split('\n');
  const foldedLines = folded.split('\n');
  if (foldedLines.length !== lines.length) return [];
  const starts: number[] = [];
  let offset = 0;
  for (const line of foldedLines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  // Most texts hold nothing any pattern needs: one scan of the whole text tells.
  const obfuscated = looksObfuscated(lowered);
  if (!obfuscated) {
    const all = stemsOf(folded);
    if (!PATTERNS.some((p) => possible(p, all))) return [];
  }
  const stems = stemsByLine(folded, starts);
  const units: (Unit | null)[] = foldedLines.map((line, i) => {
    if (line.trim() === '') return null;
    scriptStems(line, stems[i]!);
    const plain = deobfuscate(loweredLines[i]!);
    return { folded: line, stems: stems[i]!, plain: plain && plain !== line ? { text: plain, stems: stemsOf(plain) } : null };
  });
  const flags: InjectionFlag[] = [];
  const flag = (kind: InjectionKind, index: number) => {
    if (!flags.some((f) => f.line === index && f.kind === kind))
      flags.push({ kind, line: index, excerpt: lines[index]!.trim().slice(0, 120) });
  };
  units.forEach((unit, index) => {
    if (unit) for (const kind of kindsIn(unit, PATTERNS)) flag(kind, index);
  });
  // Split instructions: consecutive short non-blank lines that run on (one blank line between is
  // allowed). A window counts for a kind only when no line alone and no smaller window inside it
  // has it, so the flag lands on the lines the instruction spans and not on a neighbour.
  const short = units.flatMap((unit, index) => (unit && unit.folded.trim().length <= SPLIT_LINE_CHARS ? [{ unit, index }] : []));
  const windows = new Map<string, InjectionKind[]>();
  for (let size = 2; size <= SPLIT_WINDOW; size++) {
    for (let i = 0; i + size <= short.length; i++) {
      const window = short.slice(i, i + size);
      const runsOn = window.every(
        (w, k) => k === 0 || (w.index - window[k - 1]!.index <= 2 && !ENDS_SENTENCE.test(window[k - 1]!.unit.folded)),
      );
      if (!runsOn) continue;
      const inner = new Set([...(windows.get(`${i}:${size - 1}`) ?? []), ...(windows.get(`${i + 1}:${size - 1}`) ?? [])]);
      const alone = new Set(window.flatMap((w) => flags.filter((f) => f.line === w.index).map((f) => f.kind)));
      const kinds = kindsIn(joinUnits(window.map((w) => w.unit)), PATTERNS).filter((kind) => !inner.has(kind) && !alone.has(kind));
      windows.set(`${i}:${size}`, [...kinds, ...inner]);
      for (const kind of kinds) for (const w of window) flag(kind, w.index);
    }
  }
  return flags.sort((a, b) => a.line - b.line);
}

/** The distinct kinds, as the message flags stored at write time (`injection:<kind>`). */
export function injectionFlags(flags: readonly InjectionFlag[]): string[] {
  return [...new Set(flags.map((f) => `injection:${f.kind}`))];
}
