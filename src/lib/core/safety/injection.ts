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
 * Cost: every write runs this. The text is scanned once for the stems the patterns need
 * (INJECTION_NEEDS, stem-scan.ts), reading across lines as joined lines read; a text whose stems
 * meet no pattern's needs (nearly every message) is done. Otherwise each line runs only the patterns
 * whose needs its stems meet, and a window of joined lines is joined only when its lines' stems and
 * the stems spanning its joints could meet some pattern's.
 */
import { INJECTION_NEEDS, INJECTION_PATTERNS, type InjectionKind } from './injection-patterns';
import { stemScanner, type StemScanner } from './stem-scan';

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
  /** Per need, the indexes (into STEMS) of the stems that meet it. */
  needs: readonly (readonly number[])[];
}

const STEMS = [...new Set(INJECTION_NEEDS.flat(2))];
const STEM_INDEX = new Map(STEMS.map((stem, i) => [stem, i]));
let built: StemScanner | null = null;
/** The stems' scanner, built on the first scan (about 18 ms): not in every context that loads this module. */
const scanner = (): StemScanner => (built ??= stemScanner(STEMS));

const PATTERNS: readonly Pattern[] = INJECTION_PATTERNS.map(([kind, pattern], i) => ({
  kind,
  pattern,
  needs: INJECTION_NEEDS[i]!.map((need) =>
    need.map((stem) => {
      const index = STEM_INDEX.get(stem);
      if (index === undefined) throw new Error(`injection-patterns.ts: unknown stem ${stem}`);
      return index;
    }),
  ),
}));

const NON_ASCII = /[\u0080-\uffff]/;

/** NFKC (only non-ASCII text can change) and lower case. */
function lower(text: string): string {
  return (NON_ASCII.test(text) ? text.normalize('NFKC') : text).toLowerCase();
}

/** One space for any run of spaces (newlines stay). */
const fold = (lowered: string) => lowered.replace(/[^\S\n]+/gu, ' ');

/** The stems of `text` (lower-cased; folded or not, the scanner reads it folded). */
const stemsOf = (text: string): Set<number> => scanner().scan(text);

/** Per stem, the patterns it meets a need of: pattern index and need bit, alternating. */
const MEETS: number[][] = STEMS.map(() => []);
PATTERNS.forEach((p, index) => {
  if (p.needs.length === 0 || p.needs.length > 8) throw new Error('injection-patterns.ts: a pattern has one to eight needs');
  p.needs.forEach((need, bit) => {
    for (const stem of need) MEETS[stem]!.push(index, 1 << bit);
  });
});
const ALL_NEEDS = PATTERNS.map((p) => (1 << p.needs.length) - 1);
const met = new Uint8Array(PATTERNS.length);
const NONE: readonly number[] = [];

/**
 * The patterns whose every need `stems` meet, in pattern order. Walks the stems found (few) rather
 * than every pattern's needs (hundreds of stems): this runs for every message and every line.
 */
function possiblePatterns(stems: ReadonlySet<number>): readonly number[] {
  if (stems.size === 0) return NONE;
  met.fill(0);
  for (const stem of stems) {
    const meets = MEETS[stem]!;
    for (let i = 0; i < meets.length; i += 2) met[meets[i]!]! |= meets[i + 1]!;
  }
  const out: number[] = [];
  for (let p = 0; p < ALL_NEEDS.length; p++) if (met[p] === ALL_NEEDS[p]) out.push(p);
  return out;
}

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
/** Four letters spaced out, at the text's edges too. */
const SPACED = /(?:^| )\w \w \w \w(?: |$)/u;
const SEPARATED = /[a-z][._-][a-z]/u;
const LEETISH = /[a-z_][013457@$][a-z]|\b[013457@$][a-z]{2}/u;

/** Whether any line of `lowered` could look obfuscated: a line's edges are the text's edges or white space. */
const SPACED_IN_SOME_LINE = /(?:^|\s)\w \w \w \w(?:\s|$)/u;
function someLineLooksObfuscated(lowered: string): boolean {
  return SPACED_IN_SOME_LINE.test(lowered) || SEPARATED.test(lowered) || (/[013457@$]/u.test(lowered) && LEETISH.test(lowered));
}

/** Letters spaced out one by one ("i g n o r e"), words joined by separators, digits for letters. */
function looksObfuscated(line: string): boolean {
  return SPACED.test(line) || SEPARATED.test(line) || (/[013457@$]/u.test(line) && LEETISH.test(line));
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
  stems: Set<number>;
  /** The deobfuscated form and its stems, when the line looks obfuscated. */
  plain: { text: string; stems: Set<number> } | null;
}

function kindsIn(unit: Unit): InjectionKind[] {
  const kinds: InjectionKind[] = [];
  const onFolded = possiblePatterns(unit.stems);
  const onPlain = unit.plain ? possiblePatterns(unit.plain.stems) : NONE;
  // Both lists are in pattern order: walk them together, so kinds come in pattern order.
  let i = 0;
  let j = 0;
  while (i < onFolded.length || j < onPlain.length) {
    const index = Math.min(onFolded[i] ?? Infinity, onPlain[j] ?? Infinity);
    const folded = onFolded[i] === index;
    const plain = onPlain[j] === index;
    if (folded) i++;
    if (plain) j++;
    const p = PATTERNS[index]!;
    if (kinds.includes(p.kind)) continue;
    if ((folded && p.pattern.test(unit.folded)) || (plain && p.pattern.test(unit.plain!.text))) kinds.push(p.kind);
  }
  return kinds;
}

function joinUnits(units: readonly Unit[]): Unit {
  const folded = units.map((u) => u.folded.trim()).join(' ');
  const stems = stemsOf(folded);
  const plainText = units.some((u) => u.plain) ? units.map((u) => (u.plain?.text ?? u.folded).trim()).join(' ') : null;
  return { folded, stems, plain: plainText === null ? null : { text: plainText, stems: stemsOf(plainText) } };
}

/** A stem that spans where two lines were joined lies within this many characters of the joint. */
const LONGEST_STEM = Math.max(...STEMS.map((stem) => stem.length));

/** The texts a unit is matched on: its folded line, and its deobfuscated form if it has one. */
const forms = (unit: Unit): string[] => (unit.plain ? [unit.folded.trim(), unit.plain.text.trim()] : [unit.folded.trim()]);

/**
 * The stems that span the joint of `a` joined to `b` (as joinUnits joins them, in either form):
 * those within LONGEST_STEM of the joint.
 */
function jointStems(a: Unit, b: Unit): Set<number> {
  const into = new Set<number>();
  const left = forms(a);
  const right = forms(b);
  for (let k = 0; k < Math.max(left.length, right.length); k++) {
    const tail = (left[k] ?? left[0]!).slice(-(LONGEST_STEM - 1));
    const head = (right[k] ?? right[0]!).slice(0, LONGEST_STEM - 1);
    scanner().scan(`${tail} ${head}`, into);
  }
  return into;
}

/** A line a stem could span end to end, joined between two others: shorter than the longest stem. */
const spannable = (unit: Unit): boolean => forms(unit).some((form) => form.length < LONGEST_STEM - 1);

/**
 * Whether joining `units` (joinUnits) could match any pattern, told without joining them: the
 * joined text holds no stem but the lines' own (in either form) and those spanning a joint
 * (`joints[k]`, the joint after `units[k]`). When a middle line is short enough for a stem to span
 * it whole, only joining tells, so this says yes.
 */
function joinMayMatch(units: readonly Unit[], joints: readonly Set<number>[]): boolean {
  for (let k = 1; k + 1 < units.length; k++) if (spannable(units[k]!)) return true;
  const stems = new Set<number>();
  for (const unit of units) {
    for (const stem of unit.stems) stems.add(stem);
    if (unit.plain) for (const stem of unit.plain.stems) stems.add(stem);
  }
  for (const joint of joints) for (const stem of joint) stems.add(stem);
  return possiblePatterns(stems).length > 0;
}

/** A line that ends a sentence; an instruction split over lines runs on past the line's end. */
const ENDS_SENTENCE = /[.!?:;)\]"'”>`]\s*$/u;
/** Lines joined to find an instruction split over them: up to this many non-blank lines. */
const SPLIT_WINDOW = 3;
/** Joining is for short lines: a paragraph is already a line of its own. */
const SPLIT_LINE_CHARS = 120;

export function detectInjection(text: string): InjectionFlag[] {
  const lowered = lower(text);
  // Most texts hold nothing any pattern needs: one scan of the whole text tells, before anything
  // is folded or split. It reads across lines, as the windows of joined lines below do.
  if (!looksObfuscated(lowered)) {
    const all = scanner().scan(lowered, new Set(), true);
    if (possiblePatterns(all).length === 0) return [];
  }
  const folded = fold(lowered);
  const lines = text.split('\n');
  const loweredLines = lowered.split('\n');
  const foldedLines = folded.split('\n');
  if (foldedLines.length !== lines.length) return [];
  const stems = foldedLines.map(() => new Set<number>());
  scanner().scanLines(folded, stems);
  const mayBeObfuscated = someLineLooksObfuscated(lowered);
  const units: (Unit | null)[] = foldedLines.map((line, i) => {
    if (line.trim() === '') return null;
    const plain = mayBeObfuscated ? deobfuscate(loweredLines[i]!) : null;
    return { folded: line, stems: stems[i]!, plain: plain && plain !== line ? { text: plain, stems: stemsOf(plain) } : null };
  });
  const flags: InjectionFlag[] = [];
  const flag = (kind: InjectionKind, index: number) => {
    if (!flags.some((f) => f.line === index && f.kind === kind))
      flags.push({ kind, line: index, excerpt: lines[index]!.trim().slice(0, 120) });
  };
  units.forEach((unit, index) => {
    if (unit) for (const kind of kindsIn(unit)) flag(kind, index);
  });
  // Split instructions: consecutive short non-blank lines that run on (one blank line between is
  // allowed). A window counts for a kind only when no line alone and no smaller window inside it
  // has it, so the flag lands on the lines the instruction spans and not on a neighbour.
  const short = units.flatMap((unit, index) => (unit && unit.folded.trim().length <= SPLIT_LINE_CHARS ? [{ unit, index }] : []));
  /** Whether short line k runs on into short line k + 1. */
  const runsOn = short.map((w, k) => k + 1 < short.length && short[k + 1]!.index - w.index <= 2 && !ENDS_SENTENCE.test(w.unit.folded));
  const joints = short.map((w, k) => (runsOn[k] ? jointStems(w.unit, short[k + 1]!.unit) : null));
  // The kinds found in each window of the size before, by its first short line.
  let smaller: (readonly InjectionKind[] | undefined)[] = [];
  for (let size = 2; size <= SPLIT_WINDOW; size++) {
    const found: (readonly InjectionKind[] | undefined)[] = [];
    for (let i = 0; i + size <= short.length; i++) {
      let joins = true;
      for (let k = i; k < i + size - 1 && joins; k++) joins = runsOn[k]!;
      if (!joins) continue;
      const window = short.slice(i, i + size);
      const units = window.map((w) => w.unit);
      const inner = new Set([...(smaller[i] ?? []), ...(smaller[i + 1] ?? [])]);
      let kinds: InjectionKind[] = [];
      if (joinMayMatch(units, joints.slice(i, i + size - 1) as Set<number>[])) {
        const alone = new Set(window.flatMap((w) => flags.filter((f) => f.line === w.index).map((f) => f.kind)));
        kinds = kindsIn(joinUnits(units)).filter((kind) => !inner.has(kind) && !alone.has(kind));
      }
      if (kinds.length > 0 || inner.size > 0) found[i] = [...kinds, ...inner];
      for (const kind of kinds) for (const w of window) flag(kind, w.index);
    }
    smaller = found;
  }
  return flags.sort((a, b) => a.line - b.line);
}

/** The distinct kinds, as the message flags stored at write time (`injection:<kind>`). */
export function injectionFlags(flags: readonly InjectionFlag[]): string[] {
  return [...new Set(flags.map((f) => `injection:${f.kind}`))];
}
