/// <reference lib="webworker" />
import { dbNameOfWorker } from '../src/lib/core/api/vaults';

/**
 * The vault database this worker serves, from the name the page started it with
 * (`vaultWorkerName`). A worker started without one fails at once rather than open a default
 * vault: every vault-bound worker serves exactly the vault it was started for.
 */
export function boundDbName(): string {
  const dbName = dbNameOfWorker(self.name);
  if (!dbName) throw new Error(`The worker "${self.name}" was started without a vault.`);
  return dbName;
}

export const workerLocks = (): LockManager | undefined => (self.navigator as Navigator | undefined)?.locks;
