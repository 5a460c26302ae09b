import { sha256Hex } from './text/normalize';

/** Random ids (UUID v4 from WebCrypto), optionally prefixed so a reader can tell what an id names. */
export function newId(prefix = ''): string {
  const id = crypto.randomUUID();
  return prefix ? `${prefix}_${id}` : id;
}

/**
 * A record id derived from what identifies the record (source and external ids), so the same
 * conversation or message gets the same id on every device and every re-import: that is what
 * makes re-import idempotent and lets vault files merge by id. 128 bits of SHA-256.
 */
export async function derivedRecordId(prefix: string, ...parts: readonly string[]): Promise<string> {
  return `${prefix}_${(await sha256Hex(parts.join('\u001f'))).slice(0, 32)}`;
}
