/**
 * Bytes in, text out. Exports are UTF-8 (with or without a BOM); Windows tools sometimes write
 * UTF-16 with a BOM. Anything else is refused with the byte where it went wrong, because a
 * silently mis-decoded export would be stored as garbage and look "successful".
 *
 * The decoder is incremental (push chunks, get text) so a 500 MB file never exists as one buffer.
 */
import { VaultFailure, vaultError, type Result, err, ok } from '../errors';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** How many leading bytes `sniffEncoding` wants to see before it decides. */
export const SNIFF_BYTES = 4;

export interface Sniffed {
  encoding: TextEncoding;
  /** Bytes of byte-order mark to skip. */
  bomLength: number;
}

/** Decides the encoding from the first bytes: a BOM, or the zero-byte pattern of BOM-less UTF-16. */
export function sniffEncoding(head: Uint8Array): Sniffed {
  const [b0, b1, b2] = [head[0], head[1], head[2]];
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (b0 === 0xff && b1 === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (b0 === 0xfe && b1 === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  // ASCII text in UTF-16 without a BOM: every other byte is zero. UTF-8 text never starts so.
  if (head.length >= 4 && b0 !== 0 && b1 === 0 && head[2] !== 0 && head[3] === 0) return { encoding: 'utf-16le', bomLength: 0 };
  if (head.length >= 4 && b0 === 0 && b1 !== 0 && head[2] === 0 && head[3] !== 0) return { encoding: 'utf-16be', bomLength: 0 };
  return { encoding: 'utf-8', bomLength: 0 };
}

/** Index of the first byte that breaks UTF-8 in `bytes`, or -1. Used only to locate an error. */
export function firstInvalidUtf8(bytes: Uint8Array, start = 0): number {
  let i = start;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    if (i + need >= bytes.length && need > 0) return i; // ends inside a character
    for (let k = 1; k <= need; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    // Overlongs and surrogates, the cases the lead byte alone does not rule out.
    const b1 = bytes[i + 1] ?? 0;
    if ((b === 0xe0 && b1 < 0xa0) || (b === 0xed && b1 > 0x9f) || (b === 0xf0 && b1 < 0x90) || (b === 0xf4 && b1 > 0x8f)) return i;
    i += need + 1;
  }
  return -1;
}

function encodingError(name: string, byteOffset: number, why: string): VaultFailure {
  return new VaultFailure(
    vaultError('import/encoding', `${name} is not valid text: ${why} at or near byte ${byteOffset}. Save it as UTF-8 and try again.`, {
      byteOffset,
    }),
  );
}

/**
 * Incremental decoder. `push` returns the text decoded so far (possibly empty while a character
 * spans two chunks); `end` flushes. Both throw a VaultFailure (`import/encoding`) on bad bytes.
 */
export class ByteDecoder {
  private decoder: TextDecoder | null = null;
  private head = new Uint8Array(0);
  private consumed = 0;
  private sniffed: Sniffed | null = null;

  constructor(private readonly name = 'The file') {}

  /** The decided encoding, once known. */
  get encoding(): Sniffed | null {
    return this.sniffed;
  }

  /** Bytes pushed so far. */
  get bytesRead(): number {
    return this.consumed + this.head.length;
  }

  push(chunk: Uint8Array): string {
    if (this.decoder === null) {
      const joined = new Uint8Array(this.head.length + chunk.length);
      joined.set(this.head);
      joined.set(chunk, this.head.length);
      if (joined.length < SNIFF_BYTES) {
        this.head = joined;
        return '';
      }
      this.head = new Uint8Array(0);
      return this.start(joined);
    }
    return this.decode(chunk, true);
  }

  end(): string {
    if (this.decoder === null) {
      const rest = this.head;
      this.head = new Uint8Array(0);
      return rest.length === 0 ? '' : this.start(rest) + this.decode(new Uint8Array(0), false);
    }
    return this.decode(new Uint8Array(0), false);
  }

  private start(bytes: Uint8Array): string {
    this.sniffed = sniffEncoding(bytes);
    this.decoder = new TextDecoder(this.sniffed.encoding, { fatal: true, ignoreBOM: true });
    this.consumed += this.sniffed.bomLength;
    return this.decode(bytes.subarray(this.sniffed.bomLength), true);
  }

  private decode(bytes: Uint8Array, stream: boolean): string {
    const decoder = this.decoder!;
    const at = this.consumed;
    try {
      const text = decoder.decode(bytes, { stream });
      this.consumed += bytes.length;
      return text;
    } catch {
      if (!stream && bytes.length === 0) throw encodingError(this.name, at, 'the file ends in the middle of a character');
      if (this.sniffed?.encoding !== 'utf-8') throw encodingError(this.name, at, `invalid ${this.sniffed?.encoding ?? ''} data`);
      // A character may have started in the previous chunk: skip its continuation bytes.
      let skip = 0;
      while (skip < 3 && skip < bytes.length && (bytes[skip]! & 0xc0) === 0x80) skip++;
      const idx = firstInvalidUtf8(bytes, skip);
      throw encodingError(this.name, at + Math.max(idx, 0), 'invalid UTF-8');
    }
  }
}

/** Decodes a whole buffer. Empty input (or only a BOM / whitespace) is `import/empty`. */
export function decodeBytes(bytes: Uint8Array, name = 'The file'): Result<string> {
  try {
    const d = new ByteDecoder(name);
    const text = d.push(bytes) + d.end();
    if (text.trim() === '') return err(vaultError('import/empty', `${name} is empty.`));
    return ok(text);
  } catch (thrown) {
    if (thrown instanceof VaultFailure) return err(thrown.toJSON());
    throw thrown;
  }
}
