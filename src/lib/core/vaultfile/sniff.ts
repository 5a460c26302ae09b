import { VAULT_FORMAT } from './format';

/** How many leading bytes `isVaultFileHead` needs to decide (the first line of any vault file fits). */
export const VAULT_HEAD_BYTES = 64 * 1024;

/**
 * True when the bytes start like an `.engram` vault file, plain or encrypted: the first line is a
 * JSON object whose `format` is "engram-vault". Decided by content, not by the file's name (a
 * shared or opened file may have lost its extension).
 */
export function isVaultFileHead(head: Uint8Array): boolean {
  const end = head.indexOf(0x0a);
  const line = new TextDecoder('utf-8', { fatal: false }).decode(end >= 0 ? head.subarray(0, end) : head);
  if (!line.trimStart().startsWith('{')) return false;
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === VAULT_FORMAT;
  } catch {
    return false;
  }
}
