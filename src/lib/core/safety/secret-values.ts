/**
 * Judging a value found after a label (`DB_PASSWORD=...`, `password: ...`, `api_key = "..."`):
 * whether it is a placeholder or a documentation example (never redacted, so a tutorial stays
 * readable), and whether it looks like a credential rather than a setting (`TOKEN_TTL=3600`,
 * `AUTH_TYPE=password`).
 */

const PLACEHOLDER = [
  /example/i,
  /x{5,}|X{5,}/,
  /\.{3}|…/,
  /^[<{([]/,
  /^\$/,
  /\{\{|\$\{|\$\(|%\(|%[A-Z_]+%/,
  /\*{3,}|•{3,}/,
  /^(?:your|my|the)[-_ ]/i,
  /replace[-_ ]?me|change[-_ ]?me|placeholder|redacted|<secret>|dummy|not[-_ ]?set|todo\b/i,
];

/** A placeholder, a template reference or a documentation example, not a secret. */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.some((p) => p.test(value));
}

/** A code expression (`os.environ["X"]`, `getpass.getpass(`), not a literal value. */
const CODE = /^[A-Za-z_$][\w$]*(?:\.[\w$]+)*\s*[([]/;

export const isCodeExpression = (value: string): boolean => CODE.test(value);

const LITERALS = new Set([
  'null',
  'none',
  'nil',
  'true',
  'false',
  'undefined',
  'empty',
  'required',
  'optional',
  'string',
  'secret',
  'password',
]);

/**
 * A value that reads like a credential, for labels that are also used for settings (token, key,
 * secret): at least 8 characters, not a URL or a path, not a number, not a word; it mixes letters
 * with digits, or cases over 12+ characters, or letters with symbols over 10+.
 */
export function looksLikeCredential(value: string): boolean {
  if (value.length < 8 || isPlaceholder(value) || LITERALS.has(value.toLowerCase()) || CODE.test(value)) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^[./~\\]/.test(value)) return false;
  if (/^\d+(?:\.\d+)?[a-z]{0,2}$/i.test(value)) return false;
  const letters = /[A-Za-z]/.test(value);
  const digits = /\d/.test(value);
  if (letters && digits) return true;
  if (value.length >= 12 && /[a-z]/.test(value) && /[A-Z]/.test(value) && !/^[A-Z]?[a-z]+(?:[A-Z][a-z]+)+$/.test(value)) return true;
  return value.length >= 10 && letters && /[^A-Za-z0-9\s]/.test(value) && !/^[-_.]?[A-Za-z]+(?:[-_.][A-Za-z]+)*[-_.]?$/.test(value);
}

/** A value after a password label: anything of 6+ characters that is not a placeholder. */
export function looksLikePassword(value: string): boolean {
  return (
    value.length >= 6 && !isPlaceholder(value) && !LITERALS.has(value.toLowerCase()) && !CODE.test(value) && !/^[a-z]+:\/\//i.test(value)
  );
}

/** Base64 of `user:password` (HTTP Basic, Docker's `auth`): decodes to printable text with a colon. */
export function isBasicCredential(value: string): boolean {
  if (value.length < 8 || value.length % 4 === 1) return false;
  let decoded: string;
  try {
    decoded = atob(value);
  } catch {
    return false;
  }
  return /^[\x20-\x7e]{1,200}:[\x20-\x7e]{1,200}$/.test(decoded);
}
