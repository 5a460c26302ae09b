/**
 * Tolerant readers for untrusted JSON. Exports change shape without notice; a parser asks for
 * what it needs and gets `undefined` for anything of the wrong type instead of crashing.
 * Objects are only ever read by fixed property names here, never written by a key taken from the
 * input, so no input can reach a prototype.
 */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own property only: an inherited `constructor` or `toString` never counts as data. */
export function field(obj: unknown, key: string): unknown {
  return isRecord(obj) && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

export function str(obj: unknown, key: string): string | undefined {
  const v = field(obj, key);
  return typeof v === 'string' ? v : undefined;
}

/** A string, or a number written as one (some exports use numeric ids). */
export function idOf(obj: unknown, key: string): string | undefined {
  const v = field(obj, key);
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

export function arr(obj: unknown, key: string): unknown[] | undefined {
  const v = field(obj, key);
  return Array.isArray(v) ? v : undefined;
}

export function rec(obj: unknown, key: string): JsonRecord | undefined {
  const v = field(obj, key);
  return isRecord(v) ? v : undefined;
}

export function bool(obj: unknown, key: string): boolean {
  return field(obj, key) === true;
}

/** The entries of a JSON object as an array of pairs (never used to write back by key). */
export function entriesOf(obj: JsonRecord): [string, unknown][] {
  return Object.keys(obj).map((k) => [k, obj[k]]);
}

/** A short, single-line, printable rendering of untrusted text for messages and notes. */
export function clip(text: string, max = 60): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/gu, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
