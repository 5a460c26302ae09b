/**
 * Hierarchical structural splitting of one text: headings first (one complete level of one
 * concept), then sentences, never inside a sentence or a code block. Returns pieces that tile
 * the text exactly.
 */
import { deepestContaining, ownBodyEnd, parseSections, type Section } from '../text/headings';
import { splitSentences } from '../text/sentences';
import type { Piece } from './types';

export type SplitMode =
  /** Keep a whole section (children included) when it fits: a chat answer stays together. */
  | 'message'
  /** Split on every heading: each level of a document is its own unit. */
  | 'resource';

interface Span {
  start: number;
  end: number;
  oversized: boolean;
}

type Count = (text: string) => number;

/** Greedy packing of whole sentences into spans of at most `max` tokens. */
function packSentences(text: string, start: number, end: number, max: number, count: Count): Span[] {
  const sentences = splitSentences(text.slice(start, end));
  if (sentences.length === 0) return [{ start, end, oversized: false }];
  const spans: Span[] = [];
  let pieceStart = start;
  let tokens = 0;
  let sentencesInPiece = 0;
  for (const sentence of sentences) {
    const n = count(sentence.text);
    if (sentencesInPiece > 0 && tokens + n > max) {
      spans.push({ start: pieceStart, end: start + sentence.start, oversized: sentencesInPiece === 1 && tokens > max });
      pieceStart = start + sentence.start;
      tokens = 0;
      sentencesInPiece = 0;
    }
    tokens += n;
    sentencesInPiece++;
  }
  spans.push({ start: pieceStart, end, oversized: sentencesInPiece === 1 && tokens > max });
  return spans;
}

function hasText(text: string, start: number, end: number): boolean {
  return /\S/u.test(text.slice(start, end));
}

function fitOrPack(text: string, start: number, end: number, max: number, count: Count): Span[] {
  return count(text.slice(start, end)) <= max ? [{ start, end, oversized: false }] : packSentences(text, start, end, max, count);
}

function splitSection(text: string, section: Section, mode: SplitMode, max: number, count: Count): Span[] {
  const leaf = section.children.length === 0;
  if (leaf || (mode === 'message' && count(text.slice(section.start, section.end)) <= max)) {
    return fitOrPack(text, section.start, section.end, max, count);
  }
  const introEnd = ownBodyEnd(section);
  const children = section.children.flatMap((child) => splitSection(text, child, mode, max, count));
  if (hasText(text, section.bodyStart, introEnd)) {
    return [...fitOrPack(text, section.start, introEnd, max, count), ...children];
  }
  // A heading with no body of its own opens its first child's piece when the two fit together.
  const [first, ...rest] = children;
  if (!first) return [{ start: section.start, end: section.end, oversized: false }];
  if (first.start === section.start || count(text.slice(section.start, first.end)) <= max) {
    return [{ ...first, start: section.start }, ...rest];
  }
  return [{ start: section.start, end: introEnd, oversized: false }, ...children];
}

/** Splits `text` into pieces that tile it, each labelled with the deepest section containing it. */
export function splitStructure(text: string, mode: SplitMode, maxTokens: number, count: Count): Piece[] {
  const root = parseSections(text);
  const spans = splitSection(text, root, mode, maxTokens, count).filter((s) => s.end > s.start);
  return spans.map((span) => ({
    start: span.start,
    end: span.end,
    headingPath: deepestContaining(root, span.start, span.end).path,
    whole: span.start === 0 && span.end === text.length,
    oversized: span.oversized,
  }));
}
