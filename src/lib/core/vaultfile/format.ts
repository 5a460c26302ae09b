import { isSectionName, REQUIRED_SECTIONS, SECTION_NAMES, type SectionName } from './sections';

/**
 * The `.engram` file, format version 1. UTF-8, one JSON value per line, every line ends with "\n".
 *
 * Plain file:
 *
 *     {"format":"engram-vault","version":1,"vaultId":…,"createdAt":…,"exportedAt":…,"appVersion":…,
 *      "embeddingModelId":…|null,"vectorsIncluded":…,"sections":[…],"counts":{section:n,…}}   manifest
 *     {"section":"conversations"}                                                          section start
 *     {…record…}                                                    exactly counts.conversations lines
 *     {"end":"conversations","count":n,"sha256":"…"}     section end: SHA-256 of the record lines' bytes
 *     … the same for messages, notes, chunks, history, imports, settings, tombstones, [vectors] …
 *     {"trailer":"engram-vault","fileSha256":"…"}    SHA-256 of every line before this one except the
 *                                                    record lines (those are covered by their section's
 *                                                    checksum, which sits in a covered end line)
 *
 * The manifest states the record counts up front (the exporter counts before it streams), so the
 * reader frames sections by count, never by guessing whether a line is a record or a marker, and
 * can show progress. The checksums cannot be known before the records are streamed, so each one sits
 * in its section's end line and the whole-file checksum in the trailer; the reader checks each as it
 * reaches it. Hashing is two-level so that every byte is hashed once (hashing is the largest cost of
 * reading and writing): a change to a record breaks its section checksum, a change to any other line
 * (manifest, markers, a section checksum) breaks the file checksum. A file is complete only when the
 * trailer has been read and verified.
 *
 * Encrypted file: the first line is the only plaintext,
 *
 *     {"format":"engram-vault","version":1,"encryption":{…see crypto.ts…}}
 *
 * followed by binary AES-GCM chunks whose plaintext is exactly a plain file as above (manifest,
 * sections, trailer). Counts, ids and the embedding model stay inside the ciphertext.
 */

export const VAULT_FORMAT = 'engram-vault';
export const CURRENT_FORMAT_VERSION = 1;

export interface VaultManifest {
  format: typeof VAULT_FORMAT;
  version: number;
  vaultId: string;
  createdAt: number;
  exportedAt: number;
  appVersion: string;
  embeddingModelId: string | null;
  vectorsIncluded: boolean;
  /** Sections present in the file, in file order. */
  sections: SectionName[];
  counts: Partial<Record<SectionName, number>>;
}

export interface SectionStartLine {
  section: SectionName;
}

export interface SectionEndLine {
  end: SectionName;
  count: number;
  sha256: string;
}

export interface TrailerLine {
  trailer: typeof VAULT_FORMAT;
  fileSha256: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function hasExactKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

const MANIFEST_KEYS = [
  'format',
  'version',
  'vaultId',
  'createdAt',
  'exportedAt',
  'appVersion',
  'embeddingModelId',
  'vectorsIncluded',
  'sections',
  'counts',
];

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** Validates a current-version manifest; returns the reason when it is not one. */
export function checkManifest(value: unknown): { ok: true; manifest: VaultManifest } | { ok: false; reason: string } {
  const bad = (reason: string) => ({ ok: false as const, reason });
  if (!isPlainObject(value)) return bad('the manifest is not a JSON object');
  if (!hasExactKeys(value, MANIFEST_KEYS)) return bad(`the manifest must have exactly the fields ${MANIFEST_KEYS.join(', ')}`);
  if (value.format !== VAULT_FORMAT) return bad('the manifest does not name the engram-vault format');
  if (value.version !== CURRENT_FORMAT_VERSION)
    return bad(`the manifest version is ${String(value.version)}, expected ${CURRENT_FORMAT_VERSION}`);
  if (typeof value.vaultId !== 'string' || value.vaultId === '') return bad('`vaultId` is missing');
  if (!isTime(value.createdAt) || !isTime(value.exportedAt)) return bad('`createdAt` / `exportedAt` are not times');
  if (typeof value.appVersion !== 'string') return bad('`appVersion` is not a string');
  if (value.embeddingModelId !== null && typeof value.embeddingModelId !== 'string')
    return bad('`embeddingModelId` is not a string or null');
  if (typeof value.vectorsIncluded !== 'boolean') return bad('`vectorsIncluded` is not a boolean');
  const sections = value.sections;
  if (!Array.isArray(sections) || !sections.every(isSectionName)) return bad('`sections` names an unknown section');
  const order = sections.map((name) => SECTION_NAMES.indexOf(name));
  if (order.some((position, i) => i > 0 && position <= order[i - 1]!)) return bad('`sections` are repeated or out of order');
  for (const required of REQUIRED_SECTIONS) if (!sections.includes(required)) return bad(`section \`${required}\` is missing`);
  if (sections.includes('vectors') !== value.vectorsIncluded) return bad('`vectorsIncluded` disagrees with `sections`');
  const counts = value.counts;
  if (!isPlainObject(counts) || !hasExactKeys(counts, sections) || !sections.every((name) => isCount(counts[name]))) {
    return bad('`counts` must give a non-negative integer for exactly the listed sections');
  }
  return { ok: true, manifest: value as unknown as VaultManifest };
}

export function isSectionStart(value: unknown, section: SectionName): value is SectionStartLine {
  return isPlainObject(value) && hasExactKeys(value, ['section']) && value.section === section;
}

export function isSectionEnd(value: unknown): value is SectionEndLine {
  return (
    isPlainObject(value) &&
    hasExactKeys(value, ['end', 'count', 'sha256']) &&
    isSectionName(value.end) &&
    isCount(value.count) &&
    typeof value.sha256 === 'string' &&
    SHA256_HEX.test(value.sha256)
  );
}

export function isTrailer(value: unknown): value is TrailerLine {
  return (
    isPlainObject(value) &&
    hasExactKeys(value, ['trailer', 'fileSha256']) &&
    value.trailer === VAULT_FORMAT &&
    typeof value.fileSha256 === 'string' &&
    SHA256_HEX.test(value.fileSha256)
  );
}

/** The metadata an exporter supplies; sections and counts come from what it streams. */
export interface VaultExportMeta {
  vaultId: string;
  createdAt: number;
  exportedAt: number;
  appVersion: string;
  embeddingModelId: string | null;
}
