import { describe, expect, it } from 'vitest';
import type { VaultFileProgress } from '../../../src/lib/core/api/vault-file';
import { mergeVaultFile } from '../../../src/lib/store/vaultfile-merge';
import { restoreVault } from '../../../src/lib/store/vaultfile-restore';
import { vaultFingerprint } from '../../../src/lib/store/vaultfile-status';
import { note } from '../../factories/records';
import { sampleVault } from '../../factories/vault-state';
import {
  closeVault,
  exportBytes,
  fastEncryption,
  fastTestKdf,
  fileStream,
  openTestVault,
  putState,
  rawDump,
  seedRichVault,
  stampAt,
} from './helpers';

/** A file of a vault unlike the target, so a partial restore would show. */
async function sourceFile(encrypted: boolean): Promise<Uint8Array> {
  const source = await openTestVault();
  await seedRichVault(source, sampleVault());
  const { bytes } = await exportBytes(source, encrypted ? { encryption: { ...fastEncryption('right one'), chunkSize: 1024 } } : {});
  await closeVault(source);
  return bytes;
}

async function targetVault() {
  const target = await openTestVault();
  await putState(target, { notes: [note({ id: 'mine', text: 'Only in the target.', hlc: stampAt(1, 'tgt') })] });
  await target.settings.set('vault.reminderDays', 3);
  return target;
}

function flipLastOccurrence(bytes: Uint8Array, needle: string): Uint8Array {
  const text = new TextDecoder().decode(bytes);
  const at = new TextEncoder().encode(text.slice(0, text.lastIndexOf(needle))).length;
  const copy = bytes.slice();
  copy[at] = copy[at]! ^ 0x01;
  return copy;
}

describe('a restore or merge that fails leaves the vault exactly as it was', () => {
  const cases: Array<[string, () => Promise<{ bytes: Uint8Array; passphrase?: string }>, string]> = [
    // The damage sits in the last section: records of every earlier section were read (and staged) first.
    ['a record changed near the end', async () => ({ bytes: flipLastOccurrence(await sourceFile(false), 'lexical-v1') }), 'vault/corrupt'],
    ['a truncated file', async () => ({ bytes: (await sourceFile(false)).slice(0, -40) }), 'vault/corrupt'],
    ['a wrong passphrase', async () => ({ bytes: await sourceFile(true), passphrase: 'wrong one' }), 'vault/wrong-passphrase'],
    ['no passphrase for an encrypted file', async () => ({ bytes: await sourceFile(true) }), 'vault/passphrase-required'],
    [
      'a changed byte in the last encrypted chunk',
      async () => {
        const bytes = (await sourceFile(true)).slice();
        bytes[bytes.length - 20] = bytes[bytes.length - 20]! ^ 0x80;
        return { bytes, passphrase: 'right one' };
      },
      'vault/wrong-passphrase',
    ],
  ];

  for (const [name, make, code] of cases) {
    it(`${name}: ${code}, nothing restored or merged`, async () => {
      const { bytes, passphrase } = await make();
      for (const operation of [restoreVault, mergeVaultFile]) {
        const target = await targetVault();
        const before = await rawDump(target);
        const digest = await vaultFingerprint(target);
        await expect(operation(target, fileStream(bytes, [333]), { passphrase, deriveKey: fastTestKdf })).rejects.toMatchObject({ code });
        expect(await rawDump(target)).toEqual(before);
        expect(await vaultFingerprint(target)).toBe(digest);
        await closeVault(target);
      }
    });
  }

  it('a cancel while reading the file, or during the commit itself, changes nothing', async () => {
    const bytes = await sourceFile(false);
    for (const phase of ['reading-file', 'committing'] as const) {
      for (const operation of [restoreVault, mergeVaultFile]) {
        const target = await targetVault();
        const before = await rawDump(target);
        const controller = new AbortController();
        const seen: string[] = [];
        const onProgress = (p: VaultFileProgress) => {
          seen.push(p.phase);
          if (p.phase === phase) controller.abort();
        };
        await expect(operation(target, fileStream(bytes), { signal: controller.signal, onProgress })).rejects.toMatchObject({
          code: 'import/cancelled',
        });
        expect(seen).toContain(phase);
        expect(await rawDump(target)).toEqual(before);
        await closeVault(target);
      }
    }
  });
});
