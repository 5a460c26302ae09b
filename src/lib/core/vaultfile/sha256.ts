import { createSHA256 } from 'hash-wasm';
import { bufferSource, toHex } from './bytes';

/**
 * Incremental SHA-256. WebCrypto's digest takes the whole input at once, which a streamed
 * multi-hundred-MB section cannot be, so section and file checksums use hash-wasm's incremental
 * hasher (WASM, runs the same in Node, workers and the page).
 */
export interface Sha256 {
  update(bytes: Uint8Array): void;
  /** Hex digest of everything since creation or the last reset; then resets. */
  digestHex(): string;
  /** Forgets anything hashed since the last digest. */
  reset(): void;
}

export async function createSha256(): Promise<Sha256> {
  const hasher = await createSHA256();
  hasher.init();
  return {
    update(bytes) {
      hasher.update(bytes);
    },
    digestHex() {
      const hex = hasher.digest('hex');
      hasher.init();
      return hex;
    },
    reset() {
      hasher.init();
    },
  };
}

let shared: Promise<Sha256> | null = null;

/**
 * A hasher shared by code that uses it synchronously from `update` to `digestHex` (digest, merge):
 * no await can interleave two users, and it saves instantiating WASM per call. Streams, whose
 * hashing spans awaits, create their own with `createSha256`.
 */
export async function sharedSha256(): Promise<Sha256> {
  shared ??= createSha256();
  const hasher = await shared;
  // A previous user that threw between update and digest must not leak into this one.
  hasher.reset();
  return hasher;
}

const pool: Sha256[] = [];

/**
 * A hasher for a stream (its hashing spans awaits, so it needs its own); return it with
 * `releaseSha256` when the stream ends so the next stream does not instantiate WASM again.
 */
export async function acquireSha256(): Promise<Sha256> {
  const hasher = pool.pop() ?? (await createSha256());
  hasher.reset();
  return hasher;
}

export function releaseSha256(...hashers: Sha256[]): void {
  if (pool.length < 8) pool.push(...hashers.slice(0, 8 - pool.length));
}

/** One-shot SHA-256 of small inputs (headers), through WebCrypto. */
export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bufferSource(bytes)));
}

export async function sha256HexOf(bytes: Uint8Array): Promise<string> {
  return toHex(await sha256(bytes));
}
