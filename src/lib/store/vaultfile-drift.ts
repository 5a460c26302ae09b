import type { RestampPolicy } from '../core/vaultfile/drift';
import { restampNote } from '../core/vaultfile/drift';
import type { Vault } from './vault';

/** This device's re-stamp policy for a file being restored or merged (drift.ts). */
export async function restampPolicy(vault: Vault, now: number): Promise<RestampPolicy> {
  const taken = new Map(Object.entries(await vault.settings.get('vault.restamped')));
  return { now, stamp: () => vault.clock.stamp(), taken };
}

/** After the commit: remembers what was re-stamped; the report's lines about it. */
export async function recordRestamped(vault: Vault, restamped: ReadonlyMap<string, string>): Promise<string[]> {
  if (restamped.size === 0) return [];
  const taken = await vault.settings.get('vault.restamped');
  await vault.settings.set('vault.restamped', { ...taken, ...Object.fromEntries(restamped) });
  return [restampNote(restamped.size)];
}
