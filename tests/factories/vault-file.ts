import { createHash } from 'node:crypto';
import { readVault, type ReadVaultOptions, type VaultReadEvent } from '../../src/lib/core/vaultfile/reader';
import { streamOf } from './vault-state';

/**
 * Hand-built vault files for reader tests. Checksums are computed with Node's own SHA-256, an
 * implementation independent of the one the writer uses, following the format spec in format.ts.
 */
export function buildPlainFile(
  manifest: Record<string, unknown>,
  sections: Record<string, readonly (string | Uint8Array)[]>,
  options: { trailer?: boolean } = {},
): Uint8Array {
  const enc = new TextEncoder();
  const toBytes = (line: string | Uint8Array) => (typeof line === 'string' ? enc.encode(`${line}\n`) : line);
  const file = createHash('sha256');
  const parts: Uint8Array[] = [];
  // Record lines go into their section's hash; every other line before the trailer into the file's.
  const push = (bytes: Uint8Array, section?: ReturnType<typeof createHash>) => {
    parts.push(bytes);
    (section ?? file).update(bytes);
  };
  push(toBytes(JSON.stringify(manifest)));
  for (const [name, lines] of Object.entries(sections)) {
    push(toBytes(JSON.stringify({ section: name })));
    const hash = createHash('sha256');
    for (const line of lines) push(toBytes(line), hash);
    push(toBytes(JSON.stringify({ end: name, count: lines.length, sha256: hash.digest('hex') })));
  }
  if (options.trailer !== false) parts.push(toBytes(JSON.stringify({ trailer: 'engram-vault', fileSha256: file.digest('hex') })));
  return Buffer.concat(parts);
}

export type ReadOutcome = { events: VaultReadEvent[]; error: { code: string; message: string; detail?: unknown } | null };

/** Reads a file to the end, keeping every event and the error (if any) instead of throwing. */
export async function readAll(bytes: Uint8Array, options: ReadVaultOptions = {}, pieces?: number[]): Promise<ReadOutcome> {
  const events: VaultReadEvent[] = [];
  try {
    for await (const event of readVault(streamOf(bytes, pieces), options)) events.push(event);
    return { events, error: null };
  } catch (thrown) {
    const e = thrown as { code: string; message: string; detail?: unknown };
    return { events, error: { code: e.code, message: e.message, detail: e.detail } };
  }
}

export const recordsIn = (outcome: ReadOutcome): number =>
  outcome.events.reduce((n, e) => n + (e.kind === 'records' ? e.records.length : 0), 0);
export const completed = (outcome: ReadOutcome): boolean => outcome.events.some((e) => e.kind === 'end');
