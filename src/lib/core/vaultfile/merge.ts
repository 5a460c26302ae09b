import type { HistoryRecord, TombstoneRecord } from '../records';
import { canonicalJson } from './canonical-json';
import { hlcWall } from './hlc';
import {
  emptyVaultState,
  recordKey,
  STAMPED_SECTIONS,
  tombstoneKey,
  type SectionName,
  type SectionRecords,
  type StampedSection,
  type VaultState,
} from './sections';
import { sharedSha256, type Sha256 } from './sha256';
import { compareVersions, survivesTombstone } from './version-order';

/**
 * Merge of two vault states: per record, the maximum version under version-order.ts's total
 * order; per stamped record, removal when its tombstone is at least as late (delete vs edit:
 * see `survivesTombstone`). The result is a join: merge(A, B) = merge(B, A), merge(A, A) = A,
 * merge(merge(A, B), C) = merge(A, merge(B, C)), so devices converge whatever order they sync in.
 *
 * Precondition (every state a device can hold satisfies it, and every merge result does): no
 * record is dominated by its own tombstone, and keys are unique within a table.
 *
 * Displaced versions. Every version of a note present in an input but not in the result (it lost
 * to a later edit or to a deletion) becomes a history entry, so a merge can be looked at and
 * undone, and a conflicting edit of the same note is kept as the loser's history. The entry is a
 * pure function of the displaced version alone (id = hash of it; `at` = its own clock time;
 * nothing about the winner), because the set of versions a chain of merges displaces is the same
 * whatever the grouping, while which version displaced which is not. Hence the history merges
 * idempotently and the laws hold with history included. Only notes get entries: conversations,
 * messages and chunks are re-derivable from imports, notes are the person's curated work.
 */
export const HISTORY_SECTIONS: readonly StampedSection[] = ['notes'];

export const MERGE_HISTORY_ACTION = 'displaced-by-merge';

/** Result of merging the versions of one key. */
export interface KeyMerge<T> {
  /** The surviving version, or null when the record is deleted. */
  record: T | null;
  /** Distinct versions that were present and did not survive. */
  displaced: T[];
}

/**
 * Merges the versions of one record (any number, from any sources) with its tombstone (if any).
 * The primitive an importer uses row by row against its store; applying it piece by piece gives the
 * same result as applying it once to everything.
 */
export function mergeKey<K extends StampedSection>(
  section: K,
  versions: readonly SectionRecords[K][],
  tombstone: TombstoneRecord | undefined,
): KeyMerge<SectionRecords[K]> {
  const distinct = distinctVersions(section, versions);
  let winner: SectionRecords[K] | null = null;
  for (const version of distinct) if (winner === null || compareVersions(section, version, winner) > 0) winner = version;
  if (winner !== null && !survivesTombstone(winner, tombstone)) winner = null;
  return { record: winner, displaced: distinct.filter((version) => version !== winner) };
}

function distinctVersions<K extends SectionName>(section: K, versions: readonly SectionRecords[K][]): SectionRecords[K][] {
  const out: SectionRecords[K][] = [];
  for (const version of versions) if (!out.some((seen) => compareVersions(section, seen, version) === 0)) out.push(version);
  return out;
}

/** The history entry recording a displaced note version (deterministic, see above). */
export function displacedHistoryEntry(section: StampedSection, record: SectionRecords[StampedSection], hasher: Sha256): HistoryRecord {
  hasher.update(new TextEncoder().encode(canonicalJson({ section, record })));
  const id = `merge-${hasher.digestHex().slice(0, 32)}`;
  const what = section === 'notes' ? 'note' : `${section} record`;
  return {
    id,
    table: section,
    recordId: record.id,
    at: hlcWall(record.hlc),
    actor: 'merge',
    action: MERGE_HISTORY_ACTION,
    before: record,
    after: null,
    why: `A merge kept a later version of this ${what}, or its deletion; this is the version it replaced (clock ${record.hlc}).`,
  };
}

/** History entries for displaced versions (the streaming importer's counterpart of mergeVaults). */
export async function displacedHistory(
  section: StampedSection,
  displaced: readonly SectionRecords[StampedSection][],
): Promise<HistoryRecord[]> {
  if (!HISTORY_SECTIONS.includes(section)) return [];
  const hasher = await sharedSha256();
  return displaced.map((record) => displacedHistoryEntry(section, record, hasher));
}

/** Unions two tables by key, keeping the winning version of each. */
function unionByKey<K extends SectionName>(section: K, lists: readonly SectionRecords[K][][]): Map<string, SectionRecords[K]> {
  const byKey = new Map<string, SectionRecords[K]>();
  for (const list of lists) {
    for (const record of list) {
      const key = recordKey(section, record);
      const held = byKey.get(key);
      if (held === undefined || compareVersions(section, record, held) > 0) byKey.set(key, record);
    }
  }
  return byKey;
}

function sortedByKey<K extends SectionName>(section: K, records: Iterable<SectionRecords[K]>): SectionRecords[K][] {
  return [...records]
    .map((record) => ({ key: recordKey(section, record), record }))
    .sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0))
    .map((entry) => entry.record);
}

function groupByKey<K extends SectionName>(section: K, lists: readonly SectionRecords[K][][]): Map<string, SectionRecords[K][]> {
  const groups = new Map<string, SectionRecords[K][]>();
  for (const list of lists) {
    for (const record of list) {
      const key = recordKey(section, record);
      const group = groups.get(key);
      if (group) group.push(record);
      else groups.set(key, [record]);
    }
  }
  return groups;
}

/** Merges two vault states (in memory). Records are treated as immutable values. */
export async function mergeVaults(a: VaultState, b: VaultState): Promise<VaultState> {
  const out = emptyVaultState();
  const hasher = await sharedSha256();
  const tombstones = unionByKey('tombstones', [a.tombstones, b.tombstones]);
  out.tombstones = sortedByKey('tombstones', tombstones.values());
  const generated: HistoryRecord[] = [];
  for (const section of STAMPED_SECTIONS) {
    const kept: SectionRecords[typeof section][] = [];
    for (const [key, versions] of groupByKey(section, [a[section], b[section]])) {
      const merged = mergeKey(section, versions, tombstones.get(tombstoneKey(section, key)));
      if (merged.record) kept.push(merged.record);
      if (HISTORY_SECTIONS.includes(section))
        for (const loser of merged.displaced) generated.push(displacedHistoryEntry(section, loser, hasher));
    }
    (out[section] as SectionRecords[typeof section][]) = sortedByKey(section, kept);
  }
  out.history = sortedByKey('history', unionByKey('history', [a.history, b.history, generated]).values());
  for (const section of ['imports', 'settings', 'vectors'] as const) {
    (out[section] as SectionRecords[typeof section][]) = sortedByKey(section, unionByKey(section, [a[section], b[section]]).values());
  }
  return out;
}
