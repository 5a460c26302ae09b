/**
 * JSON parsing for untrusted exports.
 *
 * Prototype safety: `JSON.parse` itself creates `__proto__` as an own data property, but any later
 * code that copies such an object key by key (a spread into a fresh object, `Object.assign`, a
 * deep merge) would then set a prototype. So keys named `__proto__`, `constructor` and `prototype`
 * are dropped while parsing: no export format uses them and none can survive to be copied.
 * A reviver costs a function call per value, so it only runs when the text could contain such a
 * key: one of the three words literally, or a `\u00XX` escape that could spell one.
 */
import { vaultError, type VaultError, type Result, err, ok } from '../errors';

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Escapes of `_` and of the lowercase letters `a`-`z`: enough to spell any of the three keys. */
const ESCAPED_KEY_CHAR = /\\u00(?:5[fF]|[67][0-9a-fA-F])/u;

/** True when `text` might hold an unsafe key (false positives only cost speed). */
export function mayHoldUnsafeKey(text: string): boolean {
  return (
    text.includes('__proto__') ||
    text.includes('constructor') ||
    text.includes('prototype') ||
    (text.includes('\\u00') && ESCAPED_KEY_CHAR.test(text))
  );
}

export interface SafeParsed {
  value: unknown;
  /** How many unsafe keys were dropped. */
  droppedKeys: number;
}

/** `JSON.parse` without unsafe keys. Throws SyntaxError like `JSON.parse`. */
export function safeJsonParse(text: string): SafeParsed {
  if (!mayHoldUnsafeKey(text)) return { value: JSON.parse(text) as unknown, droppedKeys: 0 };
  let droppedKeys = 0;
  const value = JSON.parse(text, (key, v: unknown) => {
    if (UNSAFE_KEYS.has(key)) {
      droppedKeys++;
      return undefined;
    }
    return v;
  }) as unknown;
  return { value, droppedKeys };
}

/**
 * True when the text stops inside a string or with brackets still open: the JSON was cut off
 * (a partial download, a full disk), as opposed to written wrong.
 */
export function endsEarly(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return inString || depth > 0;
}

export interface TextOrigin {
  /** Display name for messages. */
  name: string;
  /** Bytes of the whole input, for "ends at byte N". */
  totalBytes: number;
  /** Bytes before the text (a BOM) and bytes per code unit, to turn a character position into a byte offset. */
  prefixBytes: number;
  utf16: boolean;
}

function byteOffsetOf(text: string, charIndex: number, origin: TextOrigin): number {
  const prefix = text.slice(0, charIndex);
  return origin.prefixBytes + (origin.utf16 ? prefix.length * 2 : new TextEncoder().encode(prefix).length);
}

/** Turns a `JSON.parse` failure on `text` into `import/truncated` or `import/not-json` with a byte offset. */
export function jsonError(text: string, thrown: unknown, origin: TextOrigin): VaultError {
  if (endsEarly(text)) {
    return vaultError(
      'import/truncated',
      `${origin.name} ends early at byte ${origin.totalBytes}: the JSON is cut off (an interrupted download?). Export it again.`,
      { byteOffset: origin.totalBytes },
    );
  }
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  const pos = /position (\d+)/u.exec(message);
  const charIndex = pos ? Math.min(Number(pos[1]), text.length) : null;
  if (charIndex === null) return vaultError('import/not-json', `${origin.name} is not valid JSON (${message}).`, { reason: message });
  const before = text.slice(0, charIndex);
  const line = before.split('\n').length;
  const column = charIndex - before.lastIndexOf('\n');
  const byteOffset = byteOffsetOf(text, charIndex, origin);
  return vaultError(
    'import/not-json',
    `${origin.name} is not valid JSON: unexpected text at byte ${byteOffset} (line ${line}, column ${column}).`,
    {
      byteOffset,
      line,
      column,
      reason: message,
    },
  );
}

/** Parses a whole JSON document safely, with located errors. */
export function parseJsonDocument(text: string, origin: TextOrigin): Result<SafeParsed> {
  try {
    return ok(safeJsonParse(text));
  } catch (thrown) {
    return err(jsonError(text, thrown, origin));
  }
}

/**
 * Whether text that starts with `{` or `[` is meant as JSON, so a pasted note such as
 * "[Draft] my plan" or "[1] a reference" is treated as text while a broken export still gets a
 * JSON error. Exports are lists of objects, so a list must open with an object, list or string.
 */
export function looksLikeJson(text: string): boolean {
  return /^\s*(?:\{\s*(?:"|\}|$)|\[\s*(?:[[{"\]]|$))/u.test(text);
}

/** Valid JSON that is a list or an object (`[1, 2]`), as opposed to prose that starts with a bracket. */
export function isJsonContainer(text: string): boolean {
  const first = text.trimStart()[0];
  if (first !== '[' && first !== '{') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** JSON Lines (one object per line), which some tools write instead of a list. */
export function parseJsonLines(text: string): unknown[] | null {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2) return null;
  const out: unknown[] = [];
  for (const line of lines) {
    try {
      out.push(safeJsonParse(line).value);
    } catch {
      return null;
    }
  }
  return out;
}
