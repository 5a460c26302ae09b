/**
 * Which part this tab's index plays. One tab leads: it holds the Web Lock `engram-index-leader:<vault db>`
 * (one leader per vault: a tab leading one vault never keeps another vault's leader waiting),
 * runs the index jobs and writes the indexes. The others follow: they serve searches from what the
 * leader saved, reload when it says it saved, and the first to get the lock takes over when the
 * leader's tab closes. The role only moves forward: starting -> leader | follower | failed,
 * follower -> leader.
 */
import type { IndexStatus } from '../../core/api/index-api';
import { toVaultError, type VaultError } from '../../core/errors';
import { vaultScoped } from '../../core/api/vaults';
import { holdLock } from '../locks';

export const leaderLockName = (dbName: string): string => vaultScoped('engram-index-leader', dbName);

export type Role = IndexStatus['role'];

export class LeaderRole {
  private current: Role = 'starting';
  private failure: VaultError | null = null;

  constructor(
    private readonly locks: LockManager | undefined,
    private readonly dbName: string,
  ) {}

  get role(): Role {
    return this.current;
  }

  get error(): VaultError | null {
    return this.failure;
  }

  /** Takes the lead at once if nobody holds it; true when this tab leads now. */
  async tryLead(): Promise<boolean> {
    return (await holdLock(this.locks, leaderLockName(this.dbName), { ifAvailable: true })) !== null;
  }

  /** Resolves when this tab gets the lead (the leader's tab closed). */
  async waitForLead(): Promise<void> {
    await holdLock(this.locks, leaderLockName(this.dbName));
  }

  leading(): void {
    this.current = 'leader';
  }

  following(): void {
    if (this.current === 'starting') this.current = 'follower';
  }

  failed(thrown: unknown): void {
    this.current = 'failed';
    this.failure = toVaultError(thrown, 'index/failed');
  }
}
