/**
 * The one token counter (DESIGN: "tokens are counted after structural chunking"): chunk sizes,
 * extraction windows and the recall package's budget all count here. Uses the o200k_base encoding
 * of `gpt-tokenizer` (GPT-4o / GPT-5): for other model families an estimate, close enough for a
 * budget (the 75-80 % window target leaves the margin).
 *
 * The encoding's table is about 0.95 MB gzip, more than half of what a first visit would download
 * (docs/BUNDLE.md), and an empty vault counts no tokens. So it loads on demand: every path that
 * chunks, cuts extraction windows or assembles a budget awaits `loadTokenCounter()` first (the
 * index service before chunking and before reading recall candidates, the recall service, the
 * extraction job, the CLI at start); after that `countTokens` is synchronous. Counting before the
 * load is a programming error and throws (never a silent estimate: stored token counts must not
 * depend on timing).
 */
import { fail } from '../errors';

export type TokenCounter = (text: string) => number;

type Counter = (text: string, options: { disallowedSpecial: Set<string> }) => number;

// Text from an archive may contain strings such as `<|endoftext|>`: count them as plain text, so
// counting never throws (the library's default rejects them with "Disallowed special token").
const PLAIN = { disallowedSpecial: new Set<string>() };

let counter: Counter | null = null;
let loading: Promise<void> | null = null;

/** Loads the tokenizer once per realm (a dynamic import: its own chunk in the app's build). */
export function loadTokenCounter(): Promise<void> {
  loading ??= import('gpt-tokenizer').then(
    (module) => {
      counter = module.countTokens;
    },
    (error: unknown) => {
      // A failed load (offline before the chunk was cached) may be retried by the next caller.
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Whether `countTokens` can be called now. */
export const tokenCounterLoaded = (): boolean => counter !== null;

export const countTokens: TokenCounter = (text) => {
  if (text.length === 0) return 0;
  if (!counter) fail('index/failed', 'The token counter is not loaded yet (await loadTokenCounter() before counting).');
  return counter(text, PLAIN);
};

/** White space as the encoding's `\s` reads it (ECMAScript's set). */
function isSpace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Any line start `tokenSafeLines` may cut at: one that opens with neither white space nor '/'. */
const SAFE_OPENING = (code: number): boolean => code !== 47 && !isSpace(code);

/**
 * `text` cut where its count cannot change: at the start of each line whose first character
 * `opens` accepts (by default any but white space and '/'; a narrower test cuts at fewer of them).
 * The o200k_base pre-tokenizer always ends a piece there: a line break is matched only by a run of
 * white space ending in line breaks, or by punctuation with the line breaks and slashes after it,
 * and both runs stop at such a character; no piece looks behind, so the piece that starts there is
 * the same in the line as in the whole. BPE merges stay inside a piece, so the lines' counts add up
 * to the whole's (property-tested against countTokens).
 */
export function tokenSafeLines(text: string, opens: (code: number) => boolean = SAFE_OPENING): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 1; i < text.length; i++) {
    const before = text.charCodeAt(i - 1);
    if (before !== 10 && before !== 13) continue;
    const at = text.charCodeAt(i);
    if (!SAFE_OPENING(at) || !opens(at)) continue;
    lines.push(text.slice(start, i));
    start = i;
  }
  lines.push(text.slice(start));
  return lines;
}

/** A line that opens with '<': each memory of a package opens and closes with one (package-format.ts). */
const DELIMITER_LINE = (code: number): boolean => code === 60;

const remembered = new Map<string, number>();
/** Pieces remembered at most (then forgotten all at once, as the stems are). */
const REMEMBERED_PIECES = 4096;
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * `countTokens(text)` for a recall package, with the counts of its pieces remembered: the text is cut
 * at its delimiter lines (`tokenSafeLines`: each memory, with its opening line, is one piece), and an
 * ask's package is mostly the memories of the asks before it (LoCoMo dev: 94 % of the characters
 * counted had been counted before). On a package of new memories only it costs about 1.3 times what
 * `countTokens` does, on one already counted about a sixth (recall README, "Latency"). A piece is
 * stored as a copy of its own (a slice would keep the whole package alive in the map).
 */
export const countTokensRemembered: TokenCounter = (text) => {
  let total = 0;
  for (const piece of tokenSafeLines(text, DELIMITER_LINE)) {
    let count = remembered.get(piece);
    if (count === undefined) {
      count = countTokens(piece);
      const copy = utf8Decoder.decode(utf8Encoder.encode(piece));
      // A piece with a lone surrogate does not come back the same: counted, not remembered.
      if (copy === piece) {
        if (remembered.size >= REMEMBERED_PIECES) remembered.clear();
        remembered.set(copy, count);
      }
    }
    total += count;
  }
  return total;
};
