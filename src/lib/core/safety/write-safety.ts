/**
 * Write-time safety, applied to every message and resource before it is stored: hidden characters
 * stripped (so a key split by zero-width spaces is still found), secrets redacted, and
 * injection-like lines flagged. Flags do not change the text: a stored chat keeps what was said;
 * read time (sanitize-read.ts) decides how flagged lines travel into a prompt.
 */
import { stripHiddenText } from './hidden-text';
import { detectInjection, injectionFlags } from './injection';
import { redactSecrets, type SecretKind } from './redact-secrets';

export interface WriteSafetyResult {
  text: string;
  redactions: Partial<Record<SecretKind, number>>;
  /** `injection:<kind>` per kind found; `hidden-text` when tag characters spelled hidden ASCII. */
  flags: string[];
  hiddenRemoved: number;
}

export function applyWriteSafety(text: string): WriteSafetyResult {
  const hidden = stripHiddenText(text, 'strip');
  const redacted = redactSecrets(hidden.text);
  const flags = injectionFlags(detectInjection(redacted.text));
  if (hidden.smuggled.trim() !== '') {
    // What the invisible characters spelled is checked too: that is where an attack would hide.
    flags.push('hidden-text', ...injectionFlags(detectInjection(hidden.smuggled)));
  }
  return { text: redacted.text, redactions: redacted.redactions, flags: [...new Set(flags)], hiddenRemoved: hidden.removed };
}

/**
 * The safe form of a short field (a title, a label, a file name, an id): secrets redacted, hidden
 * characters gone. The text applyWriteSafety stores, without the injection flags no field keeps
 * (an import runs this on two ids of every message).
 */
export function safeField(text: string): string {
  return redactSecrets(stripHiddenText(text, 'strip').text).text;
}

/**
 * Every string inside a JSON-like value (an import report, a summary) through `safeField`; other
 * values kept. Reports quote titles, file names and parser remarks, so they may carry a key too.
 */
export function safeStrings<T>(value: T): T {
  if (typeof value === 'string') return safeField(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => safeStrings(v)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, safeStrings(v)])) as T;
  }
  return value;
}
