import { canonicalJson } from './canonical-json';
import { isSyncBookkeeping, recordKey, SECTION_NAMES, type SectionName, type SectionRecords, type VaultState } from './sections';
import { sharedSha256 } from './sha256';

const encoder = new TextEncoder();

/**
 * A canonical digest of a vault state, for comparing states (merge laws, export/import round trips,
 * CLI vs browser): SHA-256 over, for each table in file order, a line `#<table>` followed by one
 * line per record in canonical JSON (canonical-json.ts), records sorted by primary key. It covers
 * records only, not file metadata (vault id, export time), and it does not depend on the order in
 * which records were stored, read or merged. Records are hashed one at a time: a large state is
 * never serialised into one string. The `vault.seen:` settings lines each export adds (what its
 * device had seen: sync bookkeeping for retention, sections.ts) are metadata too and left out.
 */
export async function vaultDigest(state: VaultState): Promise<string> {
  const hasher = await sharedSha256();
  for (const section of SECTION_NAMES) {
    hasher.update(encoder.encode(`#${section}\n`));
    for (const record of sortedRecords(section, state[section])) {
      if (section === 'settings' && isSyncBookkeeping(record as SectionRecords['settings'])) continue;
      hasher.update(encoder.encode(`${canonicalJson(record)}\n`));
    }
  }
  return hasher.digestHex();
}

function sortedRecords<K extends SectionName>(section: K, records: readonly SectionRecords[K][]): SectionRecords[K][] {
  // Keys are unique within a valid state; the canonical form orders the impossible duplicate too,
  // so the digest never depends on input order.
  return records
    .map((record) => ({ key: recordKey(section, record), record }))
    .sort((x, y) =>
      x.key < y.key ? -1 : x.key > y.key ? 1 : x.key === y.key ? compare(canonicalJson(x.record), canonicalJson(y.record)) : 0,
    )
    .map((entry) => entry.record);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
