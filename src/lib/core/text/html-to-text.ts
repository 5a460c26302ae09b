/**
 * Readable text from the small HTML fragments some exports carry (Gemini "My Activity"
 * `safeHtmlItem`, Open WebUI `<details>` blocks). This is text extraction, not sanitizing for
 * display: the result is stored and shown as plain text, never as HTML, so nothing here needs to
 * be safe to render (core has no DOM; DOMPurify stays in the UI for the one place HTML is shown).
 */

const NAMED: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', '\u00a0'],
  ['ndash', '–'],
  ['mdash', '—'],
  ['hellip', '…'],
  ['laquo', '«'],
  ['raquo', '»'],
  ['lsquo', '‘'],
  ['rsquo', '’'],
  ['ldquo', '“'],
  ['rdquo', '”'],
  ['copy', '©'],
  ['reg', '®'],
  ['trade', '™'],
  ['times', '×'],
  ['middot', '·'],
  ['bull', '•'],
  ['euro', '€'],
]);

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/giu, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : whole;
    }
    return NAMED.get(body.toLowerCase()) ?? whole;
  });
}

export function htmlToText(html: string): string {
  const text = html
    .replace(/<(script|style)\b[^>]{0,1000}>[\s\S]{0,100000}?<\/\1\s*>/giu, '')
    .replace(/<br\s*\/?>/giu, '\n')
    .replace(/<li\b[^>]{0,1000}>/giu, '\n- ')
    .replace(/<\/li\s*>/giu, '')
    .replace(/<\/(p|div|h[1-6]|tr|ul|ol|pre|blockquote|table)\s*>/giu, '\n')
    .replace(/<(p|div|h[1-6]|ul|ol|pre|blockquote|table)\b[^>]{0,1000}>/giu, '\n')
    .replace(/<\/?(b|strong)\b[^>]{0,1000}>/giu, '**')
    .replace(/<\/?code\b[^>]{0,1000}>/giu, '`')
    .replace(/<a\b([^>]{0,2000})>([\s\S]{0,4000}?)<\/a\s*>/giu, (whole, attrs: string, inner: string) => {
      const href = /href\s*=\s*"([^"]*)"/iu.exec(attrs)?.[1];
      if (href === undefined) return inner;
      return inner.trim() === '' || inner.trim() === href ? href : `${inner} (${href})`;
    })
    // Bounded: a "<" with no ">" after it must not make the scan quadratic.
    .replace(/<[^<>]{0,2000}>/gu, '');
  return decodeEntities(text)
    .replace(/[ \t]+\n/gu, '\n')
    .replace(/\n{3,}/gu, '\n\n')
    .trim();
}
