import { createHash } from 'node:crypto';
import type { DeriveKeyFn } from '../../src/lib/core/vaultfile/kdf';
import { canonicalJson } from '../../src/lib/core/vaultfile/canonical-json';

/**
 * A stand-in key derivation for tests that exercise tamper detection thousands of times: still a
 * function of the passphrase and of every header parameter (cost, salt), so any change to them
 * changes the key, but without Argon2id's deliberate cost. Tests of the real KDFs use the real ones.
 */
export const fastTestKdf: DeriveKeyFn = async (passphrase, params) =>
  new Uint8Array(createHash('sha256').update(passphrase).update(canonicalJson(params)).digest());

/** Cheapest parameters the policy accepts (the header must still pass the reader's policy check). */
export const MIN_ARGON2ID = { name: 'argon2id', memoryKiB: 19_456, iterations: 2, parallelism: 1 } as const;

/** Deterministic "randomness" for reproducible encrypted files. */
export function counterRandom(seed = 1): (length: number) => Uint8Array {
  let next = seed;
  return (length) => Uint8Array.from({ length }, () => (next = (next * 1103515245 + 12345) >>> 0) >>> 24);
}

/** Byte ranges of an encrypted file: header line, its base64 fields, and each chunk's body and tag. */
export function encryptedLayout(bytes: Uint8Array, chunkSize: number) {
  const newline = bytes.indexOf(0x0a);
  const headerText = new TextDecoder().decode(bytes.subarray(0, newline));
  const header = JSON.parse(headerText);
  const enc = new TextEncoder();
  const rangeOf = (value: string): [number, number] => {
    const start = enc.encode(headerText.slice(0, headerText.indexOf(`"${value}"`) + 1)).length;
    return [start, start + enc.encode(value).length];
  };
  const chunks: Array<{ body: [number, number]; tag: [number, number] }> = [];
  const sealed = chunkSize + 16;
  for (let start = newline + 1; start < bytes.length; start += sealed) {
    const end = Math.min(start + sealed, bytes.length);
    chunks.push({ body: [start, end - 16], tag: [end - 16, end] });
  }
  return {
    header: [0, newline + 1] as [number, number],
    salt: rangeOf(header.encryption.kdf.salt),
    noncePrefix: rangeOf(header.encryption.noncePrefix),
    wrapNonce: rangeOf(header.encryption.wrap.nonce),
    wrappedKey: rangeOf(header.encryption.wrap.key),
    chunks,
  };
}
