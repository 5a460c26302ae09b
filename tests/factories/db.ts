import { VaultDb } from '../../src/lib/store/schema';

let counter = 0;

/** A fresh, uniquely named vault database in fake-indexeddb. */
export function freshDb(): VaultDb {
  counter += 1;
  return new VaultDb(`test-vault-${process.pid}-${counter}-${Date.now()}`);
}

/** A second connection to the same database (another tab or worker). */
export function secondConnection(db: VaultDb): VaultDb {
  return new VaultDb(db.name);
}

/** A deterministic [0, 1) generator (mulberry32). */
export function seededRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A clock the test moves by hand. */
export function manualClock(start = 1_700_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}
