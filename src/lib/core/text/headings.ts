/**
 * The H1-H4 heading tree of a Markdown-ish text (a chat answer or a pasted document). Headings
 * inside fenced code blocks are ignored; H5 and H6 stay body text. Offsets index the input text.
 */
import { splitCodeFences } from './sentences';

export interface Section {
  /** 0 for the root (the whole text), 1-4 for a heading. */
  level: number;
  /** Heading text without the `#` marks; '' for the root. */
  title: string;
  /** Titles from the outermost heading down to this one; [] for the root. */
  path: string[];
  /** Offset of the heading line (the root starts at 0). */
  start: number;
  /** Offset after the heading line (root: 0). */
  bodyStart: number;
  /** Offset after the whole section, children included. */
  end: number;
  children: Section[];
}

const HEADING = /^ {0,3}(#{1,4})[ \t]+(\S.*?)(?:[ \t]+#+)?[ \t]*\r?$/u;

interface HeadingLine {
  level: number;
  title: string;
  start: number;
  lineEnd: number;
}

function headingLines(text: string): HeadingLine[] {
  const found: HeadingLine[] = [];
  for (const block of splitCodeFences(text)) {
    if (block.code) continue;
    let pos = block.start;
    while (pos < block.end) {
      const nl = text.indexOf('\n', pos);
      const lineEnd = nl === -1 || nl >= block.end ? block.end : nl;
      const match = HEADING.exec(text.slice(pos, lineEnd));
      if (match) found.push({ level: match[1]!.length, title: match[2]!.trim(), start: pos, lineEnd });
      pos = lineEnd + 1;
    }
  }
  return found;
}

/** Parses the heading tree; every character of `text` belongs to exactly one section's own body. */
export function parseSections(text: string): Section {
  const root: Section = { level: 0, title: '', path: [], start: 0, bodyStart: 0, end: text.length, children: [] };
  const stack: Section[] = [root];
  for (const line of headingLines(text)) {
    while (stack.length > 1 && stack[stack.length - 1]!.level >= line.level) {
      stack.pop()!.end = line.start;
    }
    const parent = stack[stack.length - 1]!;
    const bodyStart = Math.min(line.lineEnd + 1, text.length);
    const section: Section = {
      level: line.level,
      title: line.title,
      path: [...parent.path, line.title],
      start: line.start,
      bodyStart,
      end: text.length,
      children: [],
    };
    parent.children.push(section);
    stack.push(section);
  }
  return root;
}

/** Offset where the section's own body ends (its first child's heading, or its end). */
export function ownBodyEnd(section: Section): number {
  return section.children[0]?.start ?? section.end;
}

/** The deepest section that contains the whole span [start, end). */
export function deepestContaining(root: Section, start: number, end: number): Section {
  let current = root;
  for (;;) {
    const child = current.children.find((c) => c.start <= start && end <= c.end);
    if (!child) return current;
    current = child;
  }
}
