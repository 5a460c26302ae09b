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
  };
}

/** One-shot SHA-256 of small inputs (headers), through WebCrypto. */
export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bufferSource(bytes)));
}

export async function sha256HexOf(bytes: Uint8Array): Promise<string> {
  return toHex(await sha256(bytes));
}
