import { HybridClock } from '../core/vaultfile/hlc';
import type { SettingsRepo } from './settings-repo';

function randomTag(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/**
 * The hybrid logical clock of one execution context (a tab's main thread, a worker, the CLI).
 * Its node id is the device id (persisted once per vault on this device) plus a random tag per
 * context, so two tabs never make the same stamp. Every synced record is stamped with it on write.
 */
export async function openVaultClock(settings: SettingsRepo, now: () => number = Date.now): Promise<HybridClock> {
  let deviceId = await settings.get('vault.deviceId');
  if (!deviceId) {
    deviceId = `d${randomTag(10)}`;
    await settings.set('vault.deviceId', deviceId);
  }
  return new HybridClock(`${deviceId}-${randomTag(4)}`, now);
}
