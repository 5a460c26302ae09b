import { describe, expect, it } from 'vitest';
import type { NoteRecord, ProposalRecord } from '../../../src/lib/core/records';
import { emptyVaultState } from '../../../src/lib/core/vaultfile/sections';
import { CurationService } from '../../../src/lib/services/notes/curation-service';
import { listCheckpoints } from '../../../src/lib/store/checkpoints';
import { INDEX_REBUILD_JOB } from '../../../src/lib/store/vaultfile-commit';
import { mergeVaultFile } from '../../../src/lib/store/vaultfile-merge';
import { restoreVault } from '../../../src/lib/store/vaultfile-restore';
import { vaultFingerprint } from '../../../src/lib/store/vaultfile-status';
import type { Vault } from '../../../src/lib/store/vault';
import { conversation, note } from '../../factories/records';
import { closeVault, exportBytes, fileStream, openTestVault, putState, stampAt } from './helpers';

const NOW = 1_800_000_000_000;

async function device(node: string, notes: NoteRecord[]): Promise<Vault> {
  const vault = await openTestVault();
  const state = emptyVaultState();
  state.conversations.push(conversation({ id: `conv-${node}`, hlc: stampAt(1, node) }));
  state.notes.push(...notes);
  state.settings.push({ key: 'vault.id', value: `vault-${node}` });
  await putState(vault, state);
  return vault;
}

/** A stored sweep proposal that archives `target` (what sweep-job.ts writes). */
function archiveProposal(target: NoteRecord): ProposalRecord {
  return {
    id: 'prop-1',
    sweepId: 'sweep-1',
    createdAt: NOW,
    status: 'pending',
    type: 'archive',
    noteIds: [target.id],
    reasons: ['Not read for a long time.'],
    needsConfirmation: false,
    changes: [
      { recordId: target.id, action: 'archive', why: 'Faded.', before: target, after: { ...target, status: 'archived', updatedAt: NOW } },
    ],
    key: `archive:${target.id}`,
    decidedAt: null,
    historyIds: [],
    checkpointId: null,
  };
}

describe('checkpoints: roll the vault back', () => {
  it('after a sweep is applied and a file merged, rolling back to the sweep checkpoint gives the fingerprint from before', async () => {
    const stale = note({ id: 'note-stale', text: 'An old note nobody reads.', status: 'kept', hlc: stampAt(5, 'a') });
    const shared = note({ id: 'note-shared', text: 'Original.', status: 'kept', hlc: stampAt(6, 'a') });
    const a = await device('a', [stale, shared]);
    const b = await device('b', [
      { ...shared, text: 'Edited on B.', hlc: stampAt(20, 'b') },
      note({ id: 'note-b', text: 'Only on B.', hlc: stampAt(21, 'b') }),
    ]);
    const { bytes: fromB } = await exportBytes(b);
    const before = await vaultFingerprint(a);

    await a.db.proposals.put(archiveProposal(stale));
    const service = new CurationService(async () => a, { now: () => NOW });
    const applied = await service.applyProposal('prop-1', false);
    expect(applied.checkpointId).not.toBeNull();
    expect((await a.notes.get('note-stale'))?.status).toBe('archived');
    expect((await a.db.proposals.get('prop-1'))?.status).toBe('applied');
    const afterSweep = await vaultFingerprint(a);
    expect(afterSweep).not.toBe(before);

    await mergeVaultFile(a, fileStream(fromB), { now: () => NOW + 1, label: 'b.engram' });
    expect((await a.notes.get('note-shared'))?.text).toBe('Edited on B.');
    const checkpoints = await listCheckpoints(a.db);
    expect(checkpoints.map((c) => c.reason)).toEqual(['merge', 'sweep']);
    expect(checkpoints[0]!.label).toBe('Before merging b.engram');
    expect(await vaultFingerprint(a)).not.toBe(afterSweep);

    // Back to before the merge only: the sweep's change stays.
    const undoMerge = await service.rollbackTo(checkpoints[0]!.id);
    expect(undoMerge.undone).toBe(1);
    expect(await vaultFingerprint(a)).toBe(afterSweep);
    expect(await a.notes.get('note-b')).toBeUndefined();

    // Back to before the sweep: the vault is what it was, the proposal pending again, the index rebuilt.
    const undoAll = await service.rollbackTo(applied.checkpointId!);
    expect(undoAll.rows).toBeGreaterThan(0);
    expect(await vaultFingerprint(a)).toBe(before);
    expect((await a.notes.get('note-stale'))?.status).toBe('kept');
    expect((await a.db.proposals.get('prop-1'))?.status).toBe('pending');
    expect(await a.db.jobs.where('type').equals(INDEX_REBUILD_JOB).count()).toBeGreaterThan(0);

    // The roll-back took a checkpoint of its own: rolling that back returns to where it started
    // (after the sweep: the merge was rolled back before).
    await service.rollbackTo(undoAll.rollbackCheckpointId);
    expect(await vaultFingerprint(a)).toBe(afterSweep);
    expect((await a.notes.get('note-stale'))?.status).toBe('archived');
    await expect(service.rollbackTo(checkpoints[0]!.id)).rejects.toMatchObject({ code: 'input/invalid' });
    await closeVault(a);
    await closeVault(b);
  });

  it('a restore can be rolled back', async () => {
    const a = await device('a', [note({ id: 'note-a', text: 'Mine.', hlc: stampAt(5, 'a') })]);
    const b = await device('b', [note({ id: 'note-b', text: 'Theirs.', hlc: stampAt(6, 'b') })]);
    const { bytes } = await exportBytes(b);
    const before = await vaultFingerprint(a);
    await restoreVault(a, fileStream(bytes), { now: () => NOW });
    expect(await a.notes.get('note-a')).toBeUndefined();
    expect(await vaultFingerprint(a)).toBe(await vaultFingerprint(b));
    const [restore] = await listCheckpoints(a.db);
    expect(restore?.reason).toBe('restore');
    await new CurationService(async () => a, { now: () => NOW + 1 }).rollbackTo(restore!.id);
    expect(await vaultFingerprint(a)).toBe(before);
    await closeVault(a);
    await closeVault(b);
  });
});
