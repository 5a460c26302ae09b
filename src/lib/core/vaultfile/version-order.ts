import type { ImportRecord, TombstoneRecord } from '../records';
import { canonicalJson } from './canonical-json';
import { compareHlc } from './hlc';
import { isStampedSection, type SectionName, type SectionRecords } from './sections';

/**
 * The total order on versions of one record that merge takes the maximum of. Taking the maximum
 * under a total order is idempotent, commutative and associative, which is where merge gets its
 * laws from. Ties on the primary criterion are broken by canonical JSON, so two different versions
 * are never "equal" and every device picks the same one.
 *
 * - conversations, messages, notes, chunks, tombstones: the later `hlc` wins (last writer wins).
 * - settings: the later `hlc` when the row carries one (the store may stamp settings later), else
 *   the canonical-JSON tie-break alone.
 * - imports: a finished import (done / failed / cancelled) beats a running one, then the later
 *   `finishedAt` (an import row changes only while it runs).
 * - history, vectors: immutable once written (a history entry; a vector is sealed with its model
 *   and content hash), so two versions differ only by accident: the tie-break alone decides.
 */

const canonicalCache = new WeakMap<object, string>();

export function canonicalOf(record: object): string {
  let text = canonicalCache.get(record);
  if (text === undefined) {
    text = canonicalJson(record);
    canonicalCache.set(record, text);
  }
  return text;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function hlcOf(record: object): string {
  const hlc = (record as { hlc?: unknown }).hlc;
  return typeof hlc === 'string' ? hlc : '';
}

function importRank(record: ImportRecord): number {
  return record.status === 'running' ? 0 : 1;
}

function primary<K extends SectionName>(section: K, a: SectionRecords[K], b: SectionRecords[K]): number {
  if (isStampedSection(section) || section === 'tombstones' || section === 'settings') {
    return compareHlc(hlcOf(a), hlcOf(b));
  }
  if (section === 'imports') {
    const x = a as ImportRecord;
    const y = b as ImportRecord;
    const rank = importRank(x) - importRank(y);
    if (rank !== 0) return rank;
    return (x.finishedAt ?? -Infinity) - (y.finishedAt ?? -Infinity) || 0;
  }
  return 0;
}

/** Negative when `a` loses to `b`, positive when it wins, zero only for identical versions. */
export function compareVersions<K extends SectionName>(section: K, a: SectionRecords[K], b: SectionRecords[K]): number {
  if (a === b) return 0;
  const first = primary(section, a, b);
  if (first !== 0) return Math.sign(first);
  return compareStrings(canonicalOf(a), canonicalOf(b));
}

/** The winning version of two versions of the same record. */
export function pickVersion<K extends SectionName>(section: K, a: SectionRecords[K], b: SectionRecords[K]): SectionRecords[K] {
  return compareVersions(section, a, b) >= 0 ? a : b;
}

/**
 * Delete versus edit: a record survives its tombstone only when its stamp is strictly later than
 * the deletion's. An edit made after the device saw the deletion (an undo, a re-import) therefore
 * brings the record back; an edit concurrent with the deletion is ordered by the clocks like any
 * two concurrent writes; on an exact tie the deletion wins.
 */
export function survivesTombstone(record: { hlc: string }, tombstone: TombstoneRecord | undefined): boolean {
  return tombstone === undefined || compareHlc(record.hlc, tombstone.hlc) > 0;
}
