import { openVault } from '../../src/lib/store/vault';
import { exportVault } from '../../src/lib/store/vaultfile-export';
import { restoreVault } from '../../src/lib/store/vaultfile-restore';
import { generateVault } from '../factories/vault-state';
import { drain, dropVault, fillVault, replay } from './vaultfile-store-work';

/**
 * The vault-file store path in Chromium (real IndexedDB): export of a generated vault (snapshot +
 * stream drained) and restore of that file into an empty vault (stage + one-transaction commit).
 * Called by tests/bench/vaultfile.bench.ts through the benchmark page.
 */
export interface ChromiumVaultFileTiming {
  records: number;
  bytes: number;
  setupS: number;
  exportS: number;
  importS: number;
}

async function roundTrip(args: unknown): Promise<ChromiumVaultFileTiming> {
  const shape = args as { conversations: number; messagesPerConversation: number; notes: number; chunks: number; seed: number };
  const tx = { timeoutMs: 30 * 60_000 };
  const source = await openVault(`bench-vaultfile-chromium-${Math.random().toString(36).slice(2)}`, { tx });
  const target = await openVault(`bench-vaultfile-chromium-${Math.random().toString(36).slice(2)}`, { tx });
  try {
    let start = performance.now();
    await fillVault(source, generateVault(shape));
    const setupS = (performance.now() - start) / 1000;
    start = performance.now();
    const exported = await exportVault(source, { vectors: false, appVersion: 'bench', tx });
    const { parts, bytes } = await drain(exported.stream);
    const exportS = (performance.now() - start) / 1000;
    start = performance.now();
    await restoreVault(target, replay(parts), { tx });
    const importS = (performance.now() - start) / 1000;
    return { records: exported.records, bytes, setupS, exportS, importS };
  } finally {
    await dropVault(source);
    await dropVault(target);
  }
}

export const functions = { vaultfileRoundTrip: roundTrip };
