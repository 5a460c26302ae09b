import { describe, expect, it } from 'vitest';
import type { NoteRecord } from '../../../src/lib/core/records';
import { vaultDigest } from '../../../src/lib/core/vaultfile/digest';
import { MERGE_HISTORY_ACTION, mergeVaults } from '../../../src/lib/core/vaultfile/merge';
import { emptyVaultState, type VaultState } from '../../../src/lib/core/vaultfile/sections';
import { readVaultState } from '../../../src/lib/core/vaultfile/state-io';
import { INDEX_REBUILD_JOB } from '../../../src/lib/store/vaultfile-commit';
import { mergeVaultFile } from '../../../src/lib/store/vaultfile-merge';
import { restoreVault } from '../../../src/lib/store/vaultfile-restore';
import { vaultFingerprint } from '../../../src/lib/store/vaultfile-status';
import type { Vault } from '../../../src/lib/store/vault';
import { chunk, conversation, message, note } from '../../factories/records';
import { sampleVault } from '../../factories/vault-state';
import { closeVault, exportBytes, fileStream, openTestVault, putState, rawDump, stampAt } from './helpers';

/** Two devices that share some records, edited the same note, and each deleted something. */
function deviceStates(): { a: VaultState; b: VaultState } {
  const shared = note({ id: 'note-shared', text: 'Original.', hlc: stampAt(10, 'a') });
  const a = emptyVaultState();
  const b = emptyVaultState();
  a.conversations.push(conversation({ id: 'conv-a', hlc: stampAt(1, 'a') }), conversation({ id: 'conv-both', hlc: stampAt(2, 'a') }));
  b.conversations.push(conversation({ id: 'conv-b', hlc: stampAt(3, 'b') }), conversation({ id: 'conv-both', hlc: stampAt(2, 'a') }));
  a.messages.push(message({ id: 'msg-a', conversationId: 'conv-a', hlc: stampAt(4, 'a') }));
  b.messages.push(message({ id: 'msg-b', conversationId: 'conv-b', text: '日本庭園 🙂 שלום', hlc: stampAt(5, 'b') }));
  // Concurrent edits of the same note: B's is later and wins; A's goes to the history on both sides.
  a.notes.push({ ...shared, text: 'Edited on A.', hlc: stampAt(20, 'a') });
  b.notes.push({ ...shared, text: 'Edited on B.', hlc: stampAt(21, 'b') });
  // A deleted a chunk B still has (deletion is later: it wins); B deleted a note A edited later (the edit wins).
  a.chunks.push(chunk({ id: 'chunk-kept-by-edit', hlc: stampAt(40, 'a') }));
  b.chunks.push(chunk({ id: 'chunk-deleted-on-a', hlc: stampAt(6, 'b') }), chunk({ id: 'chunk-kept-by-edit', hlc: stampAt(7, 'b') }));
  a.tombstones.push({ table: 'chunks', id: 'chunk-deleted-on-a', hlc: stampAt(30, 'a'), deletedAt: 1 });
  b.tombstones.push({ table: 'chunks', id: 'chunk-kept-by-edit', hlc: stampAt(31, 'b'), deletedAt: 2 });
  a.notes.push(note({ id: 'note-b-deletes', text: 'Deleted on B.', hlc: stampAt(8, 'a') }));
  b.tombstones.push({ table: 'notes', id: 'note-b-deletes', hlc: stampAt(32, 'b'), deletedAt: 3 });
  a.settings.push({ key: 'vault.id', value: 'vault-a' }, { key: 'theme', value: 'dark' });
  b.settings.push({ key: 'vault.id', value: 'vault-b' }, { key: 'theme', value: 'light' });
  return { a, b };
}

async function deviceWith(state: VaultState): Promise<{ vault: Vault; file: Uint8Array }> {
  const vault = await openTestVault();
  await putState(vault, state);
  const { bytes } = await exportBytes(vault);
  return { vault, file: bytes };
}

describe('merging a vault file into the store', () => {
  it('converges in both directions to the core merge of the two files', async () => {
    const { a, b } = deviceStates();
    const deviceA = await deviceWith(a);
    const deviceB = await deviceWith(b);
    const expected = await vaultDigest(
      await mergeVaults((await readVaultState(fileStream(deviceA.file))).state, (await readVaultState(fileStream(deviceB.file))).state),
    );
    const intoA = await mergeVaultFile(deviceA.vault, fileStream(deviceB.file));
    const intoB = await mergeVaultFile(deviceB.vault, fileStream(deviceA.file));
    expect(await vaultFingerprint(deviceA.vault)).toBe(expected);
    expect(await vaultFingerprint(deviceB.vault)).toBe(expected);
    expect(intoA.unchanged).toBe(false);
    expect(intoB.changes.deleted).toBe(1); // chunk-deleted-on-a
    for (const { vault } of [deviceA, deviceB]) {
      expect((await vault.notes.get('note-shared'))?.text).toBe('Edited on B.');
      expect(await vault.notes.get('note-b-deletes')).toBeUndefined();
      expect(await vault.db.chunks.get('chunk-deleted-on-a')).toBeUndefined();
      expect((await vault.db.chunks.get('chunk-kept-by-edit'))?.hlc).toBe(stampAt(40, 'a'));
      const displaced = await vault.db.history.filter((h) => h.action === MERGE_HISTORY_ACTION).toArray();
      expect(displaced.map((h) => (h.before as NoteRecord).text).sort()).toEqual(['Deleted on B.', 'Edited on A.']);
      await closeVault(vault);
    }
  });

  it('merging the same file twice adds nothing the second time', async () => {
    const { a, b } = deviceStates();
    const deviceA = await deviceWith(a);
    const deviceB = await deviceWith(b);
    const first = await mergeVaultFile(deviceA.vault, fileStream(deviceB.file));
    expect(first.unchanged).toBe(false);
    const afterFirst = await rawDump(deviceA.vault);
    const second = await mergeVaultFile(deviceA.vault, fileStream(deviceB.file));
    expect(second).toMatchObject({ unchanged: true, changes: { added: 0, updated: 0, deleted: 0, tombstones: 0, history: 0 } });
    expect(await rawDump(deviceA.vault)).toEqual(afterFirst);
    // Its own file merged back adds nothing either.
    const own = await exportBytes(deviceA.vault);
    expect((await mergeVaultFile(deviceA.vault, fileStream(own.bytes))).unchanged).toBe(true);
    await closeVault(deviceA.vault);
    await closeVault(deviceB.vault);
  });

  it('a deletion made with deleteRecords reaches another device through the file', async () => {
    const origin = await deviceWith(sampleVault());
    const other = await openTestVault();
    await restoreVault(other, fileStream(origin.file));
    expect(await other.notes.get('note-1')).toBeDefined();
    await origin.vault.deleteRecords('notes', ['note-1']);
    const { bytes } = await exportBytes(origin.vault);
    const otherBefore = (await readVaultState(fileStream((await exportBytes(other)).bytes))).state;
    const report = await mergeVaultFile(other, fileStream(bytes));
    expect(report.changes).toMatchObject({ deleted: 1, tombstones: 1 });
    expect(await other.notes.get('note-1')).toBeUndefined();
    expect(await other.db.tombstones.get(['notes', 'note-1'])).toBeDefined();
    // The merging side keeps the version it lost in its history, as the core merge does.
    const expected = await vaultDigest(await mergeVaults(otherBefore, (await readVaultState(fileStream(bytes))).state));
    expect(await vaultFingerprint(other)).toBe(expected);
    await closeVault(origin.vault);
    await closeVault(other);
  });

  it('observes the file stamps, queues one index rebuild when something changed, and clears the export mark', async () => {
    const { a, b } = deviceStates();
    const deviceA = await deviceWith(a);
    const deviceB = await deviceWith(b);
    expect(await deviceA.vault.settings.get('vault.exportMark')).not.toBeNull();
    await mergeVaultFile(deviceA.vault, fileStream(deviceB.file));
    expect(deviceA.vault.clock.current > stampAt(32, 'b')).toBe(true);
    expect(await deviceA.vault.db.jobs.where('type').equals(INDEX_REBUILD_JOB).count()).toBe(1);
    expect(await deviceA.vault.settings.get('vault.exportMark')).toBeNull();
    await closeVault(deviceA.vault);
    await closeVault(deviceB.vault);
  });

  it('an edit made between the plan and the commit is merged, not overwritten', async () => {
    const { a, b } = deviceStates();
    const deviceA = await deviceWith(a);
    const deviceB = await deviceWith(b);
    const current = (await deviceA.vault.notes.get('note-shared'))!;
    let racing: Promise<unknown> | null = null;
    // When the plan has judged every record (B's edit of the note wins over A's), and before the
    // commit starts, the person edits the note on A: the commit must judge the note again.
    const report = await mergeVaultFile(deviceA.vault, fileStream(deviceB.file), {
      onProgress: (p) => {
        if (p.phase === 'comparing' && p.done === p.total && !racing) {
          racing = deviceA.vault.notes.save(
            { ...current, text: 'Edited on A during the merge.' },
            { actor: 'user', action: 'edit', why: 'typed', at: 2 },
          );
        }
      },
    });
    expect(racing).not.toBeNull();
    await racing;
    expect(report.unchanged).toBe(false);
    expect((await deviceA.vault.notes.get('note-shared'))?.text).toBe('Edited on A during the merge.');
    const displaced = await deviceA.vault.db.history.filter((h) => h.action === MERGE_HISTORY_ACTION).toArray();
    expect(displaced.map((h) => (h.before as NoteRecord).text)).toContain('Edited on B.');
    await closeVault(deviceA.vault);
    await closeVault(deviceB.vault);
  });
});
