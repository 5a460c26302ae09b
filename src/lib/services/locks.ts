/**
 * Web Locks for workers. Each worker that leases jobs holds `engram-worker:<id>` for as long as it
 * lives (the same prefix as the pipeline worker), so any reaper can tell a closed tab's lease from
 * a busy one at once. Without the Locks API (never in a supported browser) every holder counts as
 * alive and leases simply expire.
 */
const PREFIX = 'engram-worker:';
const locks: LockManager | undefined = (globalThis.navigator as Navigator | undefined)?.locks;

/**
 * Takes `name` and keeps it until the worker dies. Resolves true once held; with `ifAvailable`,
 * false at once when another context holds it.
 */
export function waitForLock(name: string, options: { ifAvailable?: boolean } = {}): Promise<boolean> {
  if (!locks) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    void locks.request(name, { ifAvailable: options.ifAvailable ?? false }, (lock) => {
      resolve(lock !== null);
      return lock ? new Promise<void>(() => undefined) : undefined;
    });
  });
}

export async function holdWorkerLock(workerId: string): Promise<void> {
  await waitForLock(`${PREFIX}${workerId}`);
}

export async function workerAlive(holder: string): Promise<boolean> {
  if (!locks) return true;
  const state = await locks.query();
  return (state.held ?? []).some((lock) => lock.name === `${PREFIX}${holder}`);
}
