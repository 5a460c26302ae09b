/**
 * Format detection by content, never by file name: archives by magic bytes, JSON by shape, text
 * by its speaker lines. When JSON matches nothing, `describeJson` says what it looked like, so the
 * person can tell a wrong file (a JSON Schema, a settings file) from a format we lack.
 */
import type { ImportFormat } from './parsed';
import { arr, clip, field, isRecord, rec, str } from './read';

export type ArchiveKind = 'zip' | 'gzip' | 'rar' | '7z' | 'bzip2' | 'xz' | 'tar';

function startsWith(head: Uint8Array, magic: readonly number[], at = 0): boolean {
  return head.length >= at + magic.length && magic.every((b, i) => head[at + i] === b);
}

/** Archive type from the first bytes (at least 265 for tar), or null for anything else. */
export function sniffArchive(head: Uint8Array): ArchiveKind | null {
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (startsWith(head, [0x1f, 0x8b])) return 'gzip';
  if (startsWith(head, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07])) return 'rar';
  if (startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return '7z';
  if (startsWith(head, [0x42, 0x5a, 0x68])) return 'bzip2';
  if (startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return 'xz';
  if (startsWith(head, [0x75, 0x73, 0x74, 0x61, 0x72], 257)) return 'tar';
  return null;
}

/** ChatGPT and DeepSeek share `mapping`; DeepSeek messages hold `fragments` instead of `author`. */
function mappingFlavour(mapping: Record<string, unknown>): 'chatgpt' | 'deepseek' {
  let looked = 0;
  for (const key of Object.keys(mapping)) {
    const msg = field(mapping[key], 'message');
    if (!isRecord(msg)) continue;
    if (Array.isArray(field(msg, 'fragments')) || field(msg, 'inserted_at') !== undefined) return 'deepseek';
    if (field(msg, 'author') !== undefined || field(msg, 'content') !== undefined) return 'chatgpt';
    if (++looked > 20) break;
  }
  return 'chatgpt';
}

function isGeminiActivity(v: Record<string, unknown>): boolean {
  if (typeof field(v, 'title') !== 'string' || typeof field(v, 'time') !== 'string') return false;
  const products = (arr(v, 'products') ?? []).filter((p): p is string => typeof p === 'string');
  return /gemini|bard/iu.test(str(v, 'header') ?? '') || products.some((p) => /gemini|bard/iu.test(p));
}

/** The format of one conversation-shaped JSON value, or null. */
export function detectElement(value: unknown): ImportFormat | null {
  if (!isRecord(value)) return null;
  const mapping = rec(value, 'mapping');
  if (mapping) return mappingFlavour(mapping);
  if (Array.isArray(field(value, 'chat_messages'))) return 'claude';
  if (Array.isArray(field(rec(value, 'chunkedPrompt'), 'chunks'))) return 'aistudio';
  if (isRecord(field(value, 'conversation')) && Array.isArray(field(value, 'responses'))) return 'grok';
  const chat = rec(value, 'chat') ?? value;
  if (isRecord(field(rec(chat, 'history'), 'messages')) || (rec(value, 'chat') && Array.isArray(field(chat, 'messages'))))
    return 'openwebui';
  if (isGeminiActivity(value)) return 'gemini-activity';
  return null;
}

/** How many list elements detection looks at before it gives up (a corrupt first entry is common). */
export const DETECT_WINDOW = 32;

/** The format of a list of elements: the first element in the window that matches. */
export function detectList(items: readonly unknown[]): ImportFormat | null {
  for (const item of items.slice(0, DETECT_WINDOW)) {
    const format = detectElement(item);
    if (format) return format;
  }
  return null;
}

export interface DocumentShape {
  format: ImportFormat;
  /** The conversations to parse, each with the format's element parser. */
  items: unknown[];
}

/** A whole JSON document that is not a list: one conversation, or a wrapper around a list. */
export function detectDocument(value: unknown): DocumentShape | null {
  if (Array.isArray(value)) {
    const format = detectList(value);
    return format ? { format, items: value } : null;
  }
  const single = detectElement(value);
  if (single) return { format: single, items: [value] };
  for (const key of ['conversations', 'chats', 'data', 'items']) {
    const list = arr(value, key);
    const format = list ? detectList(list) : null;
    if (list && format) return { format, items: list };
  }
  return null;
}

function keyList(obj: Record<string, unknown>): string {
  const keys = Object.keys(obj);
  const shown = keys.slice(0, 8).map((k) => `"${clip(k, 30)}"`);
  return keys.length === 0 ? 'no keys' : `keys ${shown.join(', ')}${keys.length > 8 ? ` and ${keys.length - 8} more` : ''}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** One sentence on what a JSON value looks like, for `import/unknown-format`. */
export function describeJson(value: unknown): string {
  if (isRecord(value)) {
    const isSchema =
      typeof field(value, '$schema') === 'string' ||
      (typeof field(value, 'type') === 'string' && (rec(value, 'properties') || rec(value, 'items')));
    if (isSchema) {
      const title = str(value, 'title');
      return `a JSON Schema document${title ? ` ("${clip(title)}")` : ''}: it describes the shape of data but holds none`;
    }
    return `a JSON object with ${keyList(value)}`;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return 'an empty JSON list';
    const kinds = [...new Set(value.slice(0, DETECT_WINDOW).map(kindOf))];
    const first = value.find(isRecord);
    const firstDesc = first ? `; the first object has ${keyList(first)}` : '';
    return `a JSON list of ${value.length} item(s) (${kinds.join(', ')})${firstDesc}`;
  }
  return `a single JSON ${kindOf(value)}`;
}
