/**
 * Escaping for data delimiters. A memory's text must never be able to close the delimiter it sits
 * in (and so smuggle text outside it): XML-tagged output escapes markup characters; Markdown output
 * uses `<<<` / `>>>` delimiter lines and escapes any run of three or more angle brackets.
 */

export function escapeXmlText(text: string): string {
  return text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
}

export function escapeXmlAttr(text: string): string {
  return escapeXmlText(text)
    .replace(/"/gu, '&quot;')
    .replace(/[\r\n\t]+/gu, ' ');
}

/** `<<<` -> `\<\<\<` (same for `>`): the content can no longer contain a delimiter token. */
export function escapeMarkdownDelimiters(text: string): string {
  return text.replace(/<{3,}/gu, (run) => '\\<'.repeat(run.length)).replace(/>{3,}/gu, (run) => '\\>'.repeat(run.length));
}

/** One line of metadata: newlines collapsed, delimiters escaped. */
export function markdownInline(text: string): string {
  return escapeMarkdownDelimiters(text.replace(/\s+/gu, ' ').trim());
}
