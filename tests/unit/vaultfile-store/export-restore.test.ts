import { describe, expect, it } from 'vitest';
import { vaultDigest } from '../../../src/lib/core/vaultfile/digest';
import { readVaultState } from '../../../src/lib/core/vaultfile/state-io';
import { contentHash } from '../../../src/lib/core/text/normalize';
import { ImportSession } from '../../../src/lib/store/import-session';
import { INDEX_REBUILD_JOB } from '../../../src/lib/store/vaultfile-commit';
import { restoreVault } from '../../../src/lib/store/vaultfile-restore';
import { exportableState, vaultFingerprint } from '../../../src/lib/store/vaultfile-status';
import { ALL_HARD_TEXT, sampleVault } from '../../factories/vault-state';
import { closeVault, exportBytes, fastEncryption, fastTestKdf, fileStream, openTestVault, seedRichVault } from './helpers';

describe('export from the store, restore into a store', () => {
  it('reproduces the canonical digest of the store contents, plain and encrypted, with and without vectors', async () => {
    const source = await openTestVault();
    await seedRichVault(source, sampleVault());
    for (const encrypted of [false, true]) {
      const { bytes } = await exportBytes(source, encrypted ? { encryption: fastEncryption('correct horse') } : {});
      // After the export: the first one gives the vault its id (a synced setting).
      const expected = await vaultFingerprint(source);
      // The file holds exactly the store's exportable content.
      const read = await readVaultState(fileStream(bytes), { passphrase: 'correct horse', deriveKey: fastTestKdf });
      expect(await vaultDigest(read.state)).toBe(expected);
      expect(read.encrypted).toBe(encrypted);
      const target = await openTestVault();
      const report = await restoreVault(target, fileStream(bytes, [1, 7, 4096]), { passphrase: 'correct horse', deriveKey: fastTestKdf });
      expect(await vaultFingerprint(target)).toBe(expected);
      expect(report.restored.messages).toBe(4);
      expect(report.file.encrypted).toBe(encrypted);
      await closeVault(target);
    }
    const withoutVectors = await exportBytes(source, { vectors: false });
    const target = await openTestVault();
    await restoreVault(target, fileStream(withoutVectors.bytes));
    const state = await exportableState(target);
    expect(state.vectors).toEqual([]);
    expect(state.notes.map((n) => n.text)).toContain(ALL_HARD_TEXT);
    await closeVault(target);
    await closeVault(source);
  });

  it('leaves out rows of unfinished imports, this device settings and jobs; keeps the target device settings', async () => {
    const source = await openTestVault();
    await seedRichVault(source, sampleVault());
    const { bytes, counts } = await exportBytes(source);
    const file = await readVaultState(fileStream(bytes));
    expect(file.state.conversations.map((c) => c.id)).not.toContain('conv-staged');
    expect(file.state.messages.map((m) => m.id)).not.toContain('msg-staged');
    // Plus the exporting device's version vector (retention's bookkeeping, core/curate/retention.ts).
    const sourceDevice = await source.settings.get('vault.deviceId');
    expect(file.state.settings.map((s) => s.key).sort()).toEqual([
      'budget',
      'theme',
      'vault.createdAt',
      'vault.id',
      `vault.seen:${sourceDevice}`,
    ]);
    const seen = file.state.settings.find((s) => s.key === `vault.seen:${sourceDevice}`)!;
    expect(seen.value).toMatchObject({ deviceId: sourceDevice, vector: expect.any(Object) });
    expect(Object.keys((seen.value as { vector: object }).vector).length).toBeGreaterThan(0);
    expect(counts.conversations).toBe(1);
    // The deletion made through deleteRecords travels as a tombstone; the note itself does not.
    expect(file.state.tombstones.map((t) => t.id)).toContain('note-doomed');
    expect(file.state.notes.map((n) => n.id)).not.toContain('note-doomed');

    const target = await openTestVault();
    const deviceId = await target.settings.get('vault.deviceId');
    await target.settings.set('storage.persistRequested', true);
    await restoreVault(target, fileStream(bytes));
    expect(await target.settings.get('vault.deviceId')).toBe(deviceId);
    expect(await target.settings.get('storage.persistRequested')).toBe(true);
    expect(await target.settings.get('jobs.paused')).toBe(false);
    expect(await target.settings.get('vault.id')).toBe(file.manifest.vaultId);
    await closeVault(target);
    await closeVault(source);
  });

  it('an import still in progress is not exported: neither its staged conversation nor the messages it hides', async () => {
    const vault = await openTestVault();
    const session = new ImportSession(vault.db, 'imp_running/0', () => vault.clock.stamp());
    const texts = ['A question in an import that has not finished.', 'Its answer.'];
    const messages = await Promise.all(
      texts.map(async (text, i) => ({
        externalId: `m${i}`,
        role: i ? ('assistant' as const) : ('user' as const),
        text,
        contentHash: await contentHash(text),
        createdAt: null,
        parentExternalId: null,
        onVisiblePath: true,
        hidden: false,
        flags: [],
      })),
    );
    await session.add([{ source: 'chatgpt', externalId: 'c-running', title: 'Running', createdAt: 1, updatedAt: 1, messages }]);
    const during = await exportBytes(vault);
    expect(during.counts).toMatchObject({ conversations: 0, messages: 0 });
    expect((await readVaultState(fileStream(during.bytes))).state.messages).toEqual([]);
    await session.publish();
    const after = await exportBytes(vault);
    expect(after.counts).toMatchObject({ conversations: 1, messages: 2 });
    await closeVault(vault);
  });

  it('replaces what the vault held, observes the file clock, queues one index rebuild and counts as backed up', async () => {
    const source = await openTestVault();
    await seedRichVault(source, sampleVault());
    const { bytes } = await exportBytes(source);
    const target = await openTestVault();
    await target.notes.save((await source.notes.get('note-saved'))!, { actor: 'user', action: 'edit', why: 'x', at: 1 });
    await target.db.notes.put({ ...(await source.notes.get('note-saved'))!, id: 'only-here', hlc: '9000000000000:0000:far' });
    const report = await restoreVault(target, fileStream(bytes));
    expect(report.replaced.notes).toBe(2);
    expect(await target.notes.get('only-here')).toBeUndefined();
    const fileState = await readVaultState(fileStream(bytes));
    const latest = fileState.state.notes
      .map((n) => n.hlc)
      .sort()
      .at(-1)!;
    expect(target.clock.current > latest).toBe(true);
    await restoreVault(target, fileStream(bytes));
    const rebuilds = await target.db.jobs.where('type').equals(INDEX_REBUILD_JOB).toArray();
    expect(rebuilds).toHaveLength(1);
    expect(rebuilds[0]).toMatchObject({ status: 'pending', dedupeKey: INDEX_REBUILD_JOB });
    expect(await target.settings.get('vault.exportMark')).toMatchObject({ hlc: expect.any(String) });
    await closeVault(target);
    await closeVault(source);
  });
});
