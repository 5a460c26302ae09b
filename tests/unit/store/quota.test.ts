/**
 * A full disk (issue 14, item 7): a QuotaExceededError injected where IndexedDB writes, during an
 * import, a restore and an export, leaves the vault exactly as it was and surfaces as
 * `store/quota-exceeded` with a sentence a person can act on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { describeError } from '../../../src/lib/core/error-text';
import { exportVault } from '../../../src/lib/store/vaultfile-export';
import { restoreVault } from '../../../src/lib/store/vaultfile-restore';
import { runImport } from '../../../src/lib/store/importer';
import type { Vault } from '../../../src/lib/store/vault';
import { note } from '../../factories/records';
import { collectBytes, sampleVault } from '../../factories/vault-state';
import { closeVault, exportBytes, fileStream, openTestVault, putState, rawDump, seedRichVault, stampAt } from '../vaultfile-store/helpers';

type Write = (this: IDBObjectStore, ...args: unknown[]) => IDBRequest;
const proto = IDBObjectStore.prototype as unknown as { add: Write; put: Write };
const original = { add: proto.add, put: proto.put };

/** From the `after`-th write on, every write to `stores` fails as a full disk does. */
function fillDiskAfter(after: number, stores: readonly string[]): void {
  let writes = 0;
  for (const method of ['add', 'put'] as const) {
    proto[method] = function (this: IDBObjectStore, ...args: unknown[]) {
      if (stores.includes(this.name) && ++writes > after) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return original[method].apply(this, args);
    };
  }
}

afterEach(() => {
  proto.add = original.add;
  proto.put = original.put;
});

/** The vault's records and settings (jobs and the imports log aside: an attempt may be logged). */
async function records(vault: Vault) {
  const dump = await rawDump(vault);
  delete dump.jobs;
  delete dump.imports;
  return dump;
}

const TRANSCRIPT = Array.from(
  { length: 30 },
  (_, i) => `User: question ${i} about the maple\nAssistant: answer ${i}, prune in winter.`,
).join('\n');

describe('a full disk', () => {
  it('during an import: the file is not stored, the vault is as before, the report says why', async () => {
    const vault = await openTestVault();
    await putState(vault, { notes: [note({ id: 'kept', text: 'Already here.', hlc: stampAt(1) })] });
    const before = await records(vault);
    // The transcript is one conversation: its row, then its messages' block, whose write fails.
    fillDiskAfter(1, ['messages', 'messageBlocks', 'conversations']);
    const report = await runImport(vault, [{ name: 'chat.txt', size: null, bytes: new TextEncoder().encode(TRANSCRIPT) }]);
    proto.add = original.add;
    proto.put = original.put;
    expect(report.status).toBe('failed');
    const error = report.files[0]!.errors[0]!;
    expect(error.code).toBe('store/quota-exceeded');
    expect(describeError(error).nextStep).toMatch(/Free disk space.*Nothing already stored was lost/u);
    expect(await records(vault)).toEqual(before);
    await closeVault(vault);
  });

  it('during a restore: the vault is exactly as before and the error says the disk is full', async () => {
    const source = await openTestVault();
    await seedRichVault(source, sampleVault());
    const { bytes } = await exportBytes(source);
    await closeVault(source);
    const target = await openTestVault();
    await putState(target, { notes: [note({ id: 'mine', text: 'Only in the target.', hlc: stampAt(1, 'tgt') })] });
    const before = await records(target);
    fillDiskAfter(5, ['conversations', 'messages', 'notes', 'chunks', 'history', 'settings', 'tombstones', 'vectors']);
    await expect(restoreVault(target, fileStream(bytes))).rejects.toMatchObject({
      code: 'store/quota-exceeded',
      message: expect.stringMatching(/disk or the storage quota is full/u),
    });
    proto.add = original.add;
    proto.put = original.put;
    expect(await records(target)).toEqual(before);
    await closeVault(target);
  });

  it('during an export: nothing is recorded as exported, the vault is as before', async () => {
    const vault = await openTestVault();
    await seedRichVault(vault, sampleVault());
    await vault.settings.set('vault.id', 'vault-q');
    await vault.settings.set('vault.createdAt', 1);
    const before = await records(vault);
    const exported = await exportVault(vault, { vectors: false, appVersion: 'test' });
    await collectBytes(exported.stream);
    fillDiskAfter(0, ['settings']);
    await expect(exported.recordDone()).rejects.toMatchObject({ code: 'store/quota-exceeded' });
    proto.add = original.add;
    proto.put = original.put;
    expect(await records(vault)).toEqual(before);
    expect(await vault.settings.get('vault.exportMark')).toBeNull();
    await closeVault(vault);
  });
});
