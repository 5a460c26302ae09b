import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vaultDigest } from '../../../src/lib/core/vaultfile/digest';
import { mergeVaults } from '../../../src/lib/core/vaultfile/merge';
import type { VaultState } from '../../../src/lib/core/vaultfile/sections';
import { writeVaultState } from '../../../src/lib/core/vaultfile/state-io';
import { mergeVaultFile } from '../../../src/lib/store/vaultfile-merge';
import { restoreVault } from '../../../src/lib/store/vaultfile-restore';
import { vaultFingerprint } from '../../../src/lib/store/vaultfile-status';
import { runs, vaultStateArb } from '../../factories/vault-arbitrary';
import { collectBytes, sampleMeta } from '../../factories/vault-state';
import { closeVault, fileStream, openTestVault } from './helpers';

/** What a store holds of a state: no rows of unfinished imports; the vault's id settings present. */
function asStored(state: VaultState, vaultId: string): VaultState {
  return {
    ...state,
    conversations: state.conversations.filter((c) => c.state !== 'staged'),
    messages: state.messages.filter((m) => m.state !== 'staged'),
    settings: [...state.settings, { key: 'vault.id', value: vaultId }, { key: 'vault.createdAt', value: 1 }],
  };
}

async function fileOf(state: VaultState, vaultId: string): Promise<Uint8Array> {
  return collectBytes(writeVaultState(sampleMeta({ vaultId }), state));
}

describe('store merge = core merge (property, random states sharing ids, clocks and deletions)', () => {
  it('restore A, merge B: the store holds mergeVaults(A, B); merging B again changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(vaultStateArb, vaultStateArb, async (rawA, rawB) => {
        const a = asStored(rawA, 'vault-a');
        const b = asStored(rawB, 'vault-b');
        const vault = await openTestVault();
        try {
          await restoreVault(vault, fileStream(await fileOf(a, 'vault-a'), [97]));
          expect(await vaultFingerprint(vault)).toBe(await vaultDigest(a));
          const fileB = await fileOf(b, 'vault-b');
          await mergeVaultFile(vault, fileStream(fileB));
          const merged = await vaultFingerprint(vault);
          expect(merged).toBe(await vaultDigest(await mergeVaults(a, b)));
          const again = await mergeVaultFile(vault, fileStream(fileB));
          expect(again.unchanged).toBe(true);
          expect(await vaultFingerprint(vault)).toBe(merged);
        } finally {
          await closeVault(vault);
        }
      }),
      runs(60),
    );
  }, 120_000);
});
