/**
 * The text an embedder and BM25 read for a chunk: where it comes from (title, date), where it sits
 * (heading path) and who said it, around the raw text. Context words make a short turn findable
 * ("what did Caroline say about ...") without changing what is quoted.
 */

export interface ContextLine {
  speaker: string | null;
  text: string;
}

/** `YYYY-MM-DD` in UTC, or null: pure, no locale. */
export function isoDate(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms)) return null;
  return new Date(ms).toISOString().slice(0, 10);
}

export function buildContextText(
  header: { title: string; date: string | null },
  headingPath: readonly string[],
  lines: readonly ContextLine[],
): string {
  const head = [header.title.trim(), header.date].filter((part): part is string => !!part).join(' — ');
  const out: string[] = [];
  if (head) out.push(head);
  if (headingPath.length > 0) out.push(headingPath.join(' > '));
  for (const line of lines) out.push(line.speaker ? `${line.speaker}: ${line.text}` : line.text);
  return out.join('\n');
}
