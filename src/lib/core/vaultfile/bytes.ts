/**
 * Byte helpers shared by the vault-file code: strict base64, hex, concatenation, big-endian ints.
 * `btoa` / `atob` exist in browsers, workers and Node >= 16, so none of this needs Node's Buffer.
 */

const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function toBase64(bytes: Uint8Array): string {
  // String.fromCharCode over slices: spreading a large array at once overflows the call stack.
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + step) as unknown as number[]);
  }
  return btoa(binary);
}

/**
 * Strict base64: standard alphabet, padded, no whitespace, and the unused low bits of the last
 * character zero. `atob` alone accepts several spellings of the same bytes; a file whose bytes
 * were changed must never decode to the same value, so only the one canonical spelling passes.
 * Returns null when the text is not canonical base64.
 */
export function fromBase64(text: string): Uint8Array | null {
  if (!BASE64_PATTERN.test(text)) return null;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (padding > 0) {
    const last = BASE64_ALPHABET.indexOf(text[text.length - padding - 1]!);
    const unusedMask = padding === 2 ? 0b1111 : 0b11;
    if ((last & unusedMask) !== 0) return null;
  }
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

export function fromHex(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new RangeError('not a hex string');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** Big-endian unsigned 32-bit integer. */
export function u32be(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new RangeError(`not a u32: ${value}`);
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, false);
  return out;
}

/**
 * WebCrypto's TypeScript types want an ArrayBuffer-backed view (not SharedArrayBuffer); every
 * view made here is, so this only narrows the type.
 */
export function bufferSource(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes as Uint8Array<ArrayBuffer>;
}

/** A FIFO of byte chunks from which exact lengths can be taken without copying everything. */
export class ByteQueue {
  private parts: Uint8Array[] = [];
  private head = 0;
  length = 0;

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.parts.push(chunk);
    this.length += chunk.length;
  }

  /** Removes and returns exactly `n` bytes (n <= length). */
  take(n: number): Uint8Array {
    if (n > this.length) throw new RangeError('ByteQueue underflow');
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const part = this.parts[0]!;
      const available = part.length - this.head;
      const used = Math.min(available, n - filled);
      out.set(part.subarray(this.head, this.head + used), filled);
      filled += used;
      if (used === available) {
        this.parts.shift();
        this.head = 0;
      } else {
        this.head += used;
      }
    }
    this.length -= n;
    return out;
  }

  /** Removes and returns everything. */
  takeAll(): Uint8Array {
    return this.take(this.length);
  }
}
