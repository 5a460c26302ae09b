import { SECTION_NAMES, type SectionName, type SectionRecords, type VaultState } from '../../src/lib/core/vaultfile/sections';
import { openVault, type Vault } from '../../src/lib/store/vault';
import { tableOf } from '../../src/lib/store/vaultfile-tables';

/** Store helpers for the vault-file benchmark: a vault filled with a generated state, and streams of bytes. */

const LONG_TX = { timeoutMs: 30 * 60_000 };

export async function benchVault(tag: string): Promise<Vault> {
  return openVault(`bench-vaultfile-${tag}-${Math.random().toString(36).slice(2)}`, { tx: LONG_TX });
}

export async function dropVault(vault: Vault): Promise<void> {
  vault.db.close();
  await vault.db.delete();
}

/** Writes a state into the vault's tables in batches of 5,000 rows (setup, not measured). */
export async function fillVault(vault: Vault, state: VaultState): Promise<void> {
  for (const section of SECTION_NAMES) {
    const rows = state[section] as SectionRecords[SectionName][];
    for (let start = 0; start < rows.length; start += 5_000) {
      await vault.db.transaction('rw', tableOf(vault.db, section), () =>
        tableOf(vault.db, section).bulkPut(rows.slice(start, start + 5_000)),
      );
    }
  }
}

export async function drain(stream: ReadableStream<Uint8Array>): Promise<{ parts: Uint8Array[]; bytes: number }> {
  const parts: Uint8Array[] = [];
  let bytes = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { parts, bytes };
    parts.push(value);
    bytes += value.length;
  }
}

export function replay(parts: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < parts.length) controller.enqueue(parts[i++]!);
      else controller.close();
    },
  });
}
