/**
 * Content normalization (DESIGN: "trim, collapse whitespace -> storage text; lowercase + strip
 * trailing punctuation -> hash basis; SHA-256 of the basis is the dedup key").
 */

/** Storage text: trimmed, runs of whitespace collapsed to one space, Unicode NFC. */
export function normalizeText(text: string): string {
  return text.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/**
 * Storage text that keeps line structure (messages, documents): trailing spaces removed per line,
 * at most one blank line in a row, CRLF -> LF. Used where collapsing newlines would destroy
 * headings, lists and code.
 */
export function normalizeMultiline(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\r\n?/gu, '\n')
    .replace(/[ \t\f\v]+$/gmu, '')
    .replace(/\n{3,}/gu, '\n\n')
    .trim();
}

const TRAILING_PUNCTUATION = /[\p{P}\s]+$/u;

/** The basis of the dedup key: normalized, lowercased, trailing punctuation stripped. */
export function hashBasis(text: string): string {
  return normalizeText(text).toLowerCase().replace(TRAILING_PUNCTUATION, '');
}

const encoder = new TextEncoder();

function toHex(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** SHA-256 (hex) of arbitrary text, via WebCrypto (available in browsers, workers and Node >= 20). */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** The dedup key of a piece of content. */
export function contentHash(text: string): Promise<string> {
  return sha256Hex(hashBasis(text));
}
