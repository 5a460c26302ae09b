import { createSHA256, type IHasher } from 'hash-wasm';

/**
 * Content normalization (DESIGN: "trim, collapse whitespace -> storage text; lowercase + strip
 * trailing punctuation -> hash basis; SHA-256 of the basis is the dedup key").
 */

const NON_ASCII = /[\u0080-\uffff]/;

/** NFC, skipped for ASCII text (which NFC never changes): hashing runs over every message. */
function nfc(text: string): string {
  return NON_ASCII.test(text) ? text.normalize('NFC') : text;
}

/** Storage text: trimmed, runs of whitespace collapsed to one space, Unicode NFC. */
export function normalizeText(text: string): string {
  return nfc(text).replace(/\s+/gu, ' ').trim();
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

const PUNCTUATION_OR_SPACE = /^[\p{P}\s]$/u;

/**
 * The basis of the dedup key: normalized, lowercased, trailing punctuation stripped. The trailing
 * run is found by walking back from the end (an anchored regex would retry at every punctuation
 * run of a long message).
 */
export function hashBasis(text: string): string {
  const basis = normalizeText(text).toLowerCase();
  let end = basis.length;
  while (end > 0) {
    // A low surrogate after a high one ends a pair: look at the whole code point.
    const low = basis.charCodeAt(end - 1);
    const high = end >= 2 ? basis.charCodeAt(end - 2) : 0;
    const start = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? end - 2 : end - 1;
    if (!PUNCTUATION_OR_SPACE.test(basis.slice(start, end))) break;
    end = start;
  }
  return basis.slice(0, end);
}

let hasher: Promise<IHasher> | null = null;

/**
 * SHA-256 (hex) of arbitrary text. hash-wasm (a maintained WASM implementation) rather than
 * WebCrypto: every message is hashed, and WebCrypto's per-call promise round trip made hashing a
 * 100 MB import several times slower. Once loaded, hashing is synchronous, so one shared instance
 * is never interleaved.
 */
export async function sha256Hex(text: string): Promise<string> {
  hasher ??= createSHA256();
  const h = await hasher;
  h.init();
  h.update(utf8(text));
  return h.digest('hex');
}

const encoder = new TextEncoder();
/** UTF-8 takes at most three bytes per UTF-16 unit. */
const SCRATCH_UNITS = 1 << 18;
let scratch: Uint8Array | null = null;

/**
 * `text` as UTF-8, in a buffer reused from call to call for texts up to 256k characters (read it
 * before the next call). hash-wasm's own `update(string)` allocates a fresh copy per call; in
 * Chromium that `TextEncoder.encode` was 2.3 s of the 300 MB import's 39 s, and `encodeInto` a
 * reused buffer took about a third of `encode`'s time (7.0 M characters of the archive).
 */
function utf8(text: string): Uint8Array {
  if (text.length > SCRATCH_UNITS) return encoder.encode(text);
  scratch ??= new Uint8Array(SCRATCH_UNITS * 3); // 768 KB, made on the first hash
  return scratch.subarray(0, encoder.encodeInto(text, scratch).written);
}

/** The dedup key of a piece of content. */
export function contentHash(text: string): Promise<string> {
  return sha256Hex(hashBasis(text));
}
