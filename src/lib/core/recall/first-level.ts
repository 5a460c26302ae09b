/**
 * The first level of a structured text (a hierarchical chunk: headings, nested bullets): its
 * shallowest headings and the unindented lines under them. A Structural item is cut to this before
 * any Core item is touched.
 */

const HEADING = /^(#{1,6})\s+\S/u;
const INDENTED = /^(?: {2,}|\t)\S/u;

export function firstLevel(text: string): string {
  const lines = text.split('\n');
  const levels = lines.map((l) => HEADING.exec(l)?.[1]?.length ?? 0).filter((n) => n > 0);
  const top = levels.length > 0 ? Math.min(...levels) : 0;
  let current = top;
  const kept: string[] = [];
  for (const line of lines) {
    const heading = HEADING.exec(line)?.[1]?.length ?? 0;
    if (heading > 0) {
      current = heading;
      if (heading === top) kept.push(line);
      continue;
    }
    if (current > top || INDENTED.test(line)) continue;
    kept.push(line);
  }
  return kept
    .join('\n')
    .replace(/\n{3,}/gu, '\n\n')
    .trim();
}

/** Structured: cutting to the first level leaves something and removes something. */
export function hasDeeperLevels(text: string): boolean {
  const first = firstLevel(text);
  return first.length > 0 && first.length < text.trim().length;
}
