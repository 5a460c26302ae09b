import { DEFAULT_MAX_DRIFT_MS, hlcWall } from './hlc';

/**
 * Records stamped further ahead of this device's clock than the drift bound (a device whose clock
 * is years ahead, or a crafted file). Merged as they are, they would win every later merge, so a
 * local edit or deletion made after them would lose. They are re-stamped to this device's clock
 * instead: the edit they carry is kept, ordered as if it arrived now, and whatever this device
 * does next wins over it. A version already re-stamped here (the same key and future stamp, seen
 * again in the next file from that device) is skipped, so syncing again changes nothing.
 */

export interface RestampPolicy {
  /** This device's physical clock, ms. */
  now: number;
  maxDriftMs?: number;
  /** A fresh stamp from this device's clock. */
  stamp: () => string;
  /** Versions re-stamped before: record key -> the future stamp it carried. */
  taken: ReadonlyMap<string, string>;
}

export function beyondDrift(hlc: string, now: number, maxDriftMs: number = DEFAULT_MAX_DRIFT_MS): boolean {
  return hlcWall(hlc) > now + maxDriftMs;
}

/** The merge report's line about re-stamped records. */
export function restampNote(count: number): string {
  return `${count} record${count === 1 ? ' was' : 's were'} stamped more than a day ahead of this device's clock (a device with a wrong clock, or a crafted file): kept, and re-stamped to this device's clock so later edits here still win. Check the other device's date and time.`;
}
