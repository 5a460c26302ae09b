export { seededRng } from './rng';
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
