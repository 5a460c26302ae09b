import { fail } from '../errors';
import { bufferSource, concatBytes, fromBase64, toBase64, u32be } from './bytes';
import { canonicalJson } from './canonical-json';
import { CURRENT_FORMAT_VERSION, isPlainObject, VAULT_FORMAT } from './format';
import { checkKdfParams, KEY_BYTES, type DeriveKeyFn, type KdfParams } from './kdf';
import { sha256 } from './sha256';

/**
 * Encryption of a vault file (construction; see also encrypted-stream.ts for the chunk loop).
 *
 * 1. A fresh random 256-bit data key per export encrypts the plaintext file with AES-256-GCM in
 *    chunks of `chunkSize` plaintext bytes (default 64 KiB; only the last chunk is shorter, and it
 *    is never absent: an empty plaintext still gives one final chunk of just a tag).
 * 2. Chunk nonce (96 bits) = `noncePrefix` (64 random bits drawn per file) || chunk index (32-bit
 *    big-endian). Within a file the index makes every nonce distinct by construction; across files
 *    the data key itself is fresh, so nonces never repeat under one key. (The random prefix is
 *    defence in depth should a data key ever be reused.) The writer refuses a 2^32-th chunk.
 * 3. Chunk associated data = SHA-256(header line bytes) || index (u32 BE) || final flag (1 byte).
 *    A chunk moved to another position, dropped, or a file cut at a chunk boundary fails: the index
 *    or the final flag the reader expects differs from the one the chunk was sealed with.
 * 4. The data key is wrapped with AES-256-GCM under the key-encryption key derived from the
 *    passphrase (kdf.ts), with a random 96-bit nonce, and associated data = canonical JSON of the
 *    header without the wrapped key itself: KDF name, cost, salt, chunk size and nonce prefix are
 *    authenticated before any chunk is opened.
 *
 * A wrong passphrase and any change to the file fail the same way (GCM cannot tell them apart):
 * `vault/wrong-passphrase`, "Wrong passphrase, or the file was changed."
 */

export const ENCRYPTION_SCHEME = 'aes-256-gcm-chunked';
export const DEFAULT_CHUNK_SIZE = 64 * 1024;
export const MIN_CHUNK_SIZE = 1024;
export const MAX_CHUNK_SIZE = 16 * 1024 * 1024;
export const TAG_BYTES = 16;
export const NONCE_PREFIX_BYTES = 8;
export const MAX_CHUNKS = 0xffffffff;
const WRAP_NONCE_BYTES = 12;

export interface EncryptionHeader {
  scheme: typeof ENCRYPTION_SCHEME;
  kdf: KdfParams;
  /** Plaintext bytes per chunk (all but the last). */
  chunkSize: number;
  /** Base64 of the 8-byte per-file nonce prefix. */
  noncePrefix: string;
  wrap: { alg: 'aes-256-gcm'; nonce: string; key: string };
}

export interface EncryptedFileHeader {
  format: typeof VAULT_FORMAT;
  version: number;
  encryption: EncryptionHeader;
}

/** An opened (or newly created) encryption context: what the chunk loop needs. */
export interface ChunkCipher {
  key: CryptoKey;
  noncePrefix: Uint8Array;
  /** SHA-256 of the exact header line (without its newline). */
  headerDigest: Uint8Array;
  chunkSize: number;
}

export const WRONG_PASSPHRASE = 'Wrong passphrase, or the file was changed.';

export function wrongPassphrase(stage: string): never {
  return fail('vault/wrong-passphrase', WRONG_PASSPHRASE, { stage });
}

export function chunkNonce(noncePrefix: Uint8Array, index: number): Uint8Array {
  if (noncePrefix.length !== NONCE_PREFIX_BYTES) throw new RangeError('nonce prefix must be 8 bytes');
  return concatBytes([noncePrefix, u32be(index)]);
}

export function chunkAad(headerDigest: Uint8Array, index: number, final: boolean): Uint8Array {
  return concatBytes([headerDigest, u32be(index), new Uint8Array([final ? 1 : 0])]);
}

/** AES-256-GCM seal through WebCrypto: ciphertext followed by the 16-byte tag. */
export async function aesGcmSeal(key: CryptoKey, iv: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv: bufferSource(iv), additionalData: bufferSource(aad) }, key, bufferSource(plaintext)),
  );
}

/** AES-256-GCM open; rejects (WebCrypto OperationError) when the tag does not verify. */
export async function aesGcmOpen(key: CryptoKey, iv: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(
    await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bufferSource(iv), additionalData: bufferSource(aad) }, key, bufferSource(sealed)),
  );
}

export function encryptChunk(cipher: ChunkCipher, index: number, final: boolean, plaintext: Uint8Array): Promise<Uint8Array> {
  return aesGcmSeal(cipher.key, chunkNonce(cipher.noncePrefix, index), chunkAad(cipher.headerDigest, index, final), plaintext);
}

/** Opens one chunk; any failure is the one wrong-passphrase error. */
export async function decryptChunk(cipher: ChunkCipher, index: number, final: boolean, sealed: Uint8Array): Promise<Uint8Array> {
  try {
    return await aesGcmOpen(cipher.key, chunkNonce(cipher.noncePrefix, index), chunkAad(cipher.headerDigest, index, final), sealed);
  } catch {
    return wrongPassphrase(`chunk ${index}`);
  }
}

function wrapAad(header: EncryptedFileHeader): Uint8Array {
  const { wrap, ...rest } = header.encryption;
  return new TextEncoder().encode(
    canonicalJson({ format: header.format, version: header.version, encryption: { ...rest, wrap: { alg: wrap.alg, nonce: wrap.nonce } } }),
  );
}

export async function importAesKey(raw: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', bufferSource(raw), 'AES-GCM', false, ['encrypt', 'decrypt']);
}

export interface CreateEncryptionOptions {
  passphrase: Uint8Array;
  kdf: KdfParams;
  chunkSize: number;
  random: (length: number) => Uint8Array;
  deriveKey: DeriveKeyFn;
}

/** Draws the data key, wraps it, and returns the header line (with "\n") and the chunk cipher. */
export async function createEncryption(options: CreateEncryptionOptions): Promise<{ headerLine: Uint8Array; cipher: ChunkCipher }> {
  const { chunkSize, random } = options;
  if (!Number.isInteger(chunkSize) || chunkSize < MIN_CHUNK_SIZE || chunkSize > MAX_CHUNK_SIZE)
    throw new RangeError(`chunk size must be ${MIN_CHUNK_SIZE}-${MAX_CHUNK_SIZE} bytes`);
  const dataKey = random(KEY_BYTES);
  const noncePrefix = random(NONCE_PREFIX_BYTES);
  const wrapNonce = random(WRAP_NONCE_BYTES);
  const kekBytes = await options.deriveKey(options.passphrase, options.kdf);
  const kek = await importAesKey(kekBytes);
  kekBytes.fill(0);
  const header: EncryptedFileHeader = {
    format: VAULT_FORMAT,
    version: CURRENT_FORMAT_VERSION,
    encryption: {
      scheme: ENCRYPTION_SCHEME,
      kdf: options.kdf,
      chunkSize,
      noncePrefix: toBase64(noncePrefix),
      wrap: { alg: 'aes-256-gcm', nonce: toBase64(wrapNonce), key: '' },
    },
  };
  const wrapped = await aesGcmSeal(kek, wrapNonce, wrapAad(header), dataKey);
  header.encryption.wrap.key = toBase64(wrapped);
  const key = await importAesKey(dataKey);
  dataKey.fill(0);
  const lineText = JSON.stringify(header);
  const lineBytes = new TextEncoder().encode(lineText);
  return {
    headerLine: concatBytes([lineBytes, new Uint8Array([0x0a])]),
    cipher: { key, noncePrefix, headerDigest: await sha256(lineBytes), chunkSize },
  };
}

/** True when a parsed first line announces an encrypted file (it may still be invalid). */
export function looksEncrypted(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && value.format === VAULT_FORMAT && Object.hasOwn(value, 'encryption');
}

function checkHeader(
  value: Record<string, unknown>,
): { header: EncryptedFileHeader; noncePrefix: Uint8Array; wrapNonce: Uint8Array; wrapped: Uint8Array } | string {
  const keys = Object.keys(value);
  if (keys.length !== 3 || !['format', 'version', 'encryption'].every((k) => keys.includes(k))) return 'header fields';
  if (value.version !== CURRENT_FORMAT_VERSION) return 'version';
  const enc = value.encryption;
  if (!isPlainObject(enc)) return 'encryption header';
  const encKeys = Object.keys(enc);
  if (encKeys.length !== 5 || !['scheme', 'kdf', 'chunkSize', 'noncePrefix', 'wrap'].every((k) => encKeys.includes(k)))
    return 'encryption header fields';
  if (enc.scheme !== ENCRYPTION_SCHEME) return 'scheme';
  const kdf = checkKdfParams(enc.kdf);
  if (!kdf.ok) return `kdf: ${kdf.reason}`;
  const chunkSize = enc.chunkSize;
  if (typeof chunkSize !== 'number' || !Number.isInteger(chunkSize) || chunkSize < MIN_CHUNK_SIZE || chunkSize > MAX_CHUNK_SIZE)
    return 'chunk size';
  const noncePrefix = typeof enc.noncePrefix === 'string' ? fromBase64(enc.noncePrefix) : null;
  if (!noncePrefix || noncePrefix.length !== NONCE_PREFIX_BYTES) return 'nonce prefix';
  const wrap = enc.wrap;
  if (!isPlainObject(wrap) || Object.keys(wrap).length !== 3 || wrap.alg !== 'aes-256-gcm') return 'key wrap';
  const wrapNonce = typeof wrap.nonce === 'string' ? fromBase64(wrap.nonce) : null;
  const wrapped = typeof wrap.key === 'string' ? fromBase64(wrap.key) : null;
  if (!wrapNonce || wrapNonce.length !== WRAP_NONCE_BYTES || !wrapped || wrapped.length !== KEY_BYTES + TAG_BYTES) return 'wrapped key';
  return { header: value as unknown as EncryptedFileHeader, noncePrefix, wrapNonce, wrapped };
}

/**
 * Opens an encrypted file's header: checks it, derives the key-encryption key and unwraps the data
 * key. `line` is the exact first line including its newline. Every failure after the header was
 * recognised as encrypted is `vault/wrong-passphrase` (with the failing stage in `detail`).
 */
export async function openEncryption(
  line: Uint8Array,
  value: Record<string, unknown>,
  passphrase: Uint8Array,
  deriveKey: DeriveKeyFn,
): Promise<ChunkCipher> {
  const checked = checkHeader(value);
  if (typeof checked === 'string') return wrongPassphrase(`header: ${checked}`);
  const { header, noncePrefix, wrapNonce, wrapped } = checked;
  let kekBytes: Uint8Array;
  try {
    kekBytes = await deriveKey(passphrase, header.encryption.kdf);
  } catch {
    return wrongPassphrase('key derivation');
  }
  const kek = await importAesKey(kekBytes);
  kekBytes.fill(0);
  let dataKey: Uint8Array;
  try {
    dataKey = await aesGcmOpen(kek, wrapNonce, wrapAad(header), wrapped);
  } catch {
    return wrongPassphrase('key unwrap');
  }
  const key = await importAesKey(dataKey);
  dataKey.fill(0);
  const lineBytes = line.subarray(0, line.length - 1);
  return { key, noncePrefix, headerDigest: await sha256(lineBytes), chunkSize: header.encryption.chunkSize };
}
