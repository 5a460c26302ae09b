/**
 * Where a query's words are in a text, read the way BM25 reads them (core/text/analyze.ts: lower
 * case, stop words dropped, Porter stems): a word is highlighted when its stem is one of the
 * query's terms, so "pruning" in the text lights up for "prune" in the box. Offsets are UTF-16
 * indices into the text as stored, so the UI can mark them without re-reading anything.
 */
import { analyze, forEachWord, stem } from '../text/analyze';
import { STOP_WORDS } from '../text/stop-words';

export interface TextRange {
  start: number;
  end: number;
}

/** How far a snippet's edge moves out to reach a word boundary (a URL, base64 or CJK run has none near). */
export const SNIPPET_WIDEN = 20;

/** The distinct index terms of a query. */
export function queryTerms(query: string): Set<string> {
  return new Set(analyze(query));
}

/** Ranges of the words of `text` whose index term is in `terms`, in text order. */
export function matchRanges(text: string, terms: ReadonlySet<string>): TextRange[] {
  if (terms.size === 0 || !text) return [];
  const out: TextRange[] = [];
  // Matched on the original text (not a lowercased copy) so the offsets stay exact.
  forEachWord(text, (word, start, end) => {
    if (!STOP_WORDS.has(word) && terms.has(stem(word))) out.push({ start, end });
  });
  return out;
}

export interface Snippet {
  text: string;
  /** Highlight ranges within `text`. */
  highlights: TextRange[];
  /** Where `text` starts and ends in the source text. */
  start: number;
  end: number;
  /** The source text goes on after `text` (an ellipsis belongs there; one belongs before when start > 0). */
  more: boolean;
}

/**
 * A window of about `width` characters of `text` holding as many of `ranges` as fit (the first
 * such window), widened to word boundaries by at most SNIPPET_WIDEN characters a side (beyond that
 * it is cut mid-run, and the ellipsis shows it). Without ranges: the start of the text.
 */
export function snippetOf(text: string, ranges: readonly TextRange[], width = 180): Snippet {
  if (text.length <= width) return { text, highlights: [...ranges], start: 0, end: text.length, more: false };
  let bestFrom = 0;
  let bestCount = 0;
  let j = 0;
  for (let i = 0; i < ranges.length; i++) {
    if (j < i) j = i;
    while (j + 1 < ranges.length && ranges[j + 1]!.end - ranges[i]!.start <= width) j++;
    if (j - i + 1 > bestCount) {
      bestCount = j - i + 1;
      bestFrom = i;
    }
  }
  let start = 0;
  if (bestCount > 0) {
    const first = ranges[bestFrom]!;
    const last = ranges[bestFrom + bestCount - 1]!;
    // Centre the matched stretch in the window.
    start = Math.max(0, Math.floor((first.start + last.end - width) / 2));
  }
  let end = Math.min(text.length, start + width);
  start = Math.max(0, end - width);
  // Widen to whole words, a bounded way; a highlighted word is never cut (it is at most MAX_WORD long).
  const [floor, ceiling] = [Math.max(0, start - SNIPPET_WIDEN), Math.min(text.length, end + SNIPPET_WIDEN)];
  while (start > floor && /\S/u.test(text[start - 1]!)) start--;
  while (end < ceiling && /\S/u.test(text[end]!)) end++;
  for (const r of ranges) {
    if (r.start < start && r.end > start) start = r.start;
    if (r.start < end && r.end > end) end = r.end;
  }
  const highlights = ranges.filter((r) => r.start >= start && r.end <= end).map((r) => ({ start: r.start - start, end: r.end - start }));
  return { text: text.slice(start, end), highlights, start, end, more: end < text.length };
}

export interface TextPiece {
  text: string;
  hit: boolean;
}

/** `text` cut into plain and highlighted pieces (what a `<mark>` renderer walks). */
export function splitByRanges(text: string, ranges: readonly TextRange[]): TextPiece[] {
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    if (r.start < at || r.end > text.length || r.end <= r.start) continue;
    if (r.start > at) pieces.push({ text: text.slice(at, r.start), hit: false });
    pieces.push({ text: text.slice(r.start, r.end), hit: true });
    at = r.end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), hit: false });
  return pieces;
}
