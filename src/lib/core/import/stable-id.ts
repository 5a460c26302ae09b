/**
 * Deterministic ids for things an export does not name. The store derives record ids from
 * external ids, so these must not depend on time, randomness or the file name: the same content
 * gives the same id on every device and every re-import.
 *
 * The hash is synchronous on purpose (parsers run per conversation in a tight loop; WebCrypto is
 * async). It is not a security boundary, only an id: 64 bits from two independent 32-bit lanes
 * (FNV-1a and a murmur-style mix), so collisions are negligible at export sizes, and a collision
 * within one conversation or file is resolved by `uniqueId`.
 */

export function stableHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b ^= b >>> 16;
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** An id derived from the parts that identify something; parts are joined unambiguously. */
export function derivedId(prefix: string, ...parts: readonly (string | number | null)[]): string {
  return `${prefix}:${stableHash(parts.map((p) => (p === null ? '\u0000' : String(p))).join('\u001f'))}`;
}

/**
 * Id of a message the format does not name: its position plus its own content, so earlier
 * messages keep their ids when a conversation grows and only the new ones are new.
 */
export function derivedMessageId(index: number, role: string, text: string): string {
  return `m${index}:${stableHash(`${role}\u001f${text}`)}`;
}

/** Returns `id`, or `id#2`, `id#3`, ... when `seen` already holds it; records the result. */
export function uniqueId(id: string, seen: Set<string>): string {
  let candidate = id;
  for (let n = 2; seen.has(candidate); n++) candidate = `${id}#${n}`;
  seen.add(candidate);
  return candidate;
}
