import { compareHlc, parseHlc } from '../vaultfile/hlc';
import type { HistoryRecord, TombstoneRecord } from '../records';

/**
 * Retention rules (the `vault.retention` job applies them):
 * - finished jobs older than 7 days go;
 * - a tombstone goes once every known device has merged it, or when it is older than 90 days and an
 *   export from this device held it (a device that never syncs gets the deletion from that file);
 * - a note's history keeps its newest `historyPerNote` entries (setting, default 50).
 *
 * "Merged by a device" is read from version vectors: every vault file carries its exporter's latest
 * stamp per device (a settings line `vault.seen:<device>`), and a vault holds, of each device's
 * changes, everything up to the latest stamp it has from it (whole files are merged, so what a
 * device passes on is a prefix of its history). A device has merged a tombstone when its vector
 * reaches the tombstone's stamp for the tombstone's device. Known devices: every device that stamped
 * a record or tombstone in this vault, and every device that reported a vector; one that never
 * reported one keeps every tombstone until the 90-day rule.
 */
export const RETENTION = {
  jobMaxAgeMs: 7 * 86_400_000,
  tombstoneMaxAgeMs: 90 * 86_400_000,
  /** Applied and dismissed proposals: kept as the record of the person's decisions (dismissed ones stop repeats). */
  appliedProposalMaxAgeMs: 30 * 86_400_000,
  dismissedProposalMaxAgeMs: 180 * 86_400_000,
} as const;

/** Latest stamp seen per device. */
export type VersionVector = Record<string, string>;

/** What one device had seen when it exported (settings line `vault.seen:<deviceId>`). */
export interface DeviceSeen {
  deviceId: string;
  vector: VersionVector;
}

export { SEEN_PREFIX } from '../vaultfile/sections';

/** The device of a stamp: its node id up to the per-context tag (store/clock.ts: `<device>-<tag>`). */
export function deviceOf(hlc: string): string {
  const node = parseHlc(hlc)?.node ?? hlc.slice(hlc.lastIndexOf(':') + 1);
  const dash = node.indexOf('-');
  return dash === -1 ? node : node.slice(0, dash);
}

export function addToVector(vector: VersionVector, hlc: string): void {
  if (!hlc) return;
  const device = deviceOf(hlc);
  const held = vector[device];
  if (held === undefined || compareHlc(hlc, held) > 0) vector[device] = hlc;
}

export interface TombstoneContext {
  /** This device (it holds the tombstone: it has merged it). */
  self: string;
  known: readonly string[];
  /** Vectors other devices reported. */
  seen: readonly DeviceSeen[];
  /** When this device last wrote a complete vault file. */
  lastExportAt: number | null;
  now: number;
}

export function tombstoneVerdict(tomb: TombstoneRecord, ctx: TombstoneContext): 'merged-everywhere' | 'old-and-exported' | null {
  const origin = deviceOf(tomb.hlc);
  const seen = new Map(ctx.seen.map((s) => [s.deviceId, s.vector]));
  const merged = ctx.known.every((device) => {
    if (device === ctx.self || device === origin) return true;
    const reached = seen.get(device)?.[origin];
    return reached !== undefined && compareHlc(reached, tomb.hlc) >= 0;
  });
  if (merged) return 'merged-everywhere';
  if (tomb.deletedAt < ctx.now - RETENTION.tombstoneMaxAgeMs && ctx.lastExportAt !== null && ctx.lastExportAt > tomb.deletedAt) {
    return 'old-and-exported';
  }
  return null;
}

/** Ids of history entries beyond the newest `cap` of each record. */
export function historyBeyondCap(entries: readonly Pick<HistoryRecord, 'id' | 'recordId' | 'at'>[], cap: number): string[] {
  const byRecord = new Map<string, Pick<HistoryRecord, 'id' | 'at'>[]>();
  for (const e of entries) {
    const list = byRecord.get(e.recordId);
    if (list) list.push(e);
    else byRecord.set(e.recordId, [e]);
  }
  const out: string[] = [];
  for (const list of byRecord.values()) {
    if (list.length <= cap) continue;
    list.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
    out.push(...list.slice(cap).map((e) => e.id));
  }
  return out;
}
