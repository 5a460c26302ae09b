/**
 * Web Locks, the one way this app holds them. A lock is held until `release()` or until its context
 * dies (a closed tab, a terminated worker), which is the point: another tab asks `isHeld` to tell a
 * closed tab's lease or import from a busy one at once. Without the Locks API (never in a supported
 * browser; Node tests) every lock is granted and nothing is held, so leases simply expire.
 */

import { vaultScoped } from '../core/api/vaults';

export interface LockHold {
  release(): void;
}

const NOTHING_HELD: LockHold = { release: () => undefined };

/*
 * Every lock that concerns a vault carries its database name (`vaultScoped`), so two vaults open in
 * one browser never wait for, steal or judge each other's locks: each has its own index leader,
 * its own job leases, imports and vault-file operations.
 */

/** Every worker that leases jobs of a vault holds `engram-worker:<vault db>:<id>` for as long as it lives. */
export const workerLockName = (dbName: string, workerId: string): string => vaultScoped(`engram-worker:${workerId}`, dbName);

/** Held (shared) by every worker that has a vault open; a deletion takes it exclusively. */
export const vaultOpenLockName = (dbName: string): string => vaultScoped('engram-vault-open', dbName);

/**
 * Takes `name` and holds it until released. Resolves once held; with `ifAvailable`, null at once
 * when another context holds it.
 */
export function holdLock(
  locks: LockManager | undefined,
  name: string,
  options: { ifAvailable?: boolean; mode?: LockMode } = {},
): Promise<LockHold | null> {
  if (!locks) return Promise.resolve(NOTHING_HELD);
  return new Promise<LockHold | null>((resolve) => {
    void locks.request(name, { ifAvailable: options.ifAvailable ?? false, mode: options.mode ?? 'exclusive' }, (lock) => {
      if (!lock) {
        resolve(null);
        return undefined;
      }
      return new Promise<void>((release) => resolve({ release: () => release() }));
    });
  });
}

/** Whether some context holds `name` now (true without the Locks API: nothing can be told apart). */
export async function isHeld(locks: LockManager | undefined, name: string): Promise<boolean> {
  if (!locks) return true;
  const state = await locks.query();
  return (state.held ?? []).some((lock) => lock.name === name);
}

/** The `holderAlive` of a vault's job runner: whether the worker that leased a job is still alive. */
export function workerAlive(locks: LockManager | undefined, dbName: string): (holder: string) => Promise<boolean> {
  return (holder) => isHeld(locks, workerLockName(dbName, holder));
}

/** Runs `work` while holding `name`; null without running it when another context holds it. */
export async function whileHolding<T>(locks: LockManager | undefined, name: string, work: () => Promise<T>): Promise<T | null> {
  const hold = await holdLock(locks, name, { ifAvailable: true });
  if (!hold) return null;
  try {
    return await work();
  } finally {
    hold.release();
  }
}
