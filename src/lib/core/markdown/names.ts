/**
 * File and folder names for the Markdown export that every Markdown tool accepts: no characters
 * Obsidian refuses in a note name or a wiki link (`[ ] # ^ |`), none that a file system refuses
 * (`\ / : * ? " < >`), no trailing dots or spaces, and a sane length.
 */
const FORBIDDEN = /[[\]#^|\\/:*?"<>]/gu;
/** Control characters (tabs, newlines, NUL, ...): none belongs in a file name. */
const CONTROL = /\p{Cc}/gu;
const MAX_TITLE = 64;

export function safeName(raw: string, fallback: string): string {
  const cleaned = raw
    .replace(FORBIDDEN, ' ')
    .replace(CONTROL, ' ')
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/[. ]+$/u, '');
  return cleaned.length > 0 ? cleaned : fallback;
}

/** A category as a folder name ("Provisional/Exploratory" becomes "Provisional-Exploratory"). */
export function categoryFolder(category: string): string {
  return safeName(category.replace(/[/\\]/gu, '-'), 'Notes');
}

/** A note's title: its own title, else its first sentence, cut at a word boundary. */
export function noteTitle(text: string, title?: string): string {
  const base = (title ?? text).split(/\n/u)[0]!.trim();
  const sentence = /^(.+?[.!?])(\s|$)/u.exec(base)?.[1] ?? base;
  const clean = safeName(sentence.replace(/[.!?]+$/u, ''), 'Untitled note');
  if (clean.length <= MAX_TITLE) return clean;
  const cut = clean.slice(0, MAX_TITLE);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_TITLE / 2 ? cut.slice(0, space) : cut).trim()}…`;
}

/**
 * `path` made unique among `taken` (compared case-insensitively, as on macOS and Windows file
 * systems and in Obsidian's link resolution) by adding " 2", " 3", ... before the extension.
 */
export function uniquePath(path: string, taken: ReadonlySet<string>): string {
  if (!taken.has(path.toLowerCase())) return path;
  const dot = path.lastIndexOf('.');
  const stem = dot > 0 ? path.slice(0, dot) : path;
  const ext = dot > 0 ? path.slice(dot) : '';
  for (let n = 2; ; n++) {
    const candidate = `${stem} ${n}${ext}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** The wiki link to a page at `path` (vault-relative, without ".md"), with a display text. */
export function wikiLink(path: string, label?: string): string {
  const target = path.replace(/\.md$/u, '');
  const shown = label === undefined ? undefined : label.replace(/[[\]|]/gu, ' ').trim();
  return shown && shown !== target ? `[[${target}|${shown}]]` : `[[${target}]]`;
}
