import { describe, expect, it } from 'vitest';
import { openVault } from '../../../src/lib/store/vault';
import type { NoteRecord } from '../../../src/lib/core/records';
import { note } from '../../factories/records';

describe('NotesRepo history and undo', () => {
  it('records every change and undo restores the exact prior state', async () => {
    const vault = await openVault(`notes-${Date.now()}`);
    const original = note();
    const created = await vault.notes.save(original, { actor: 'extractor', action: 'extract', why: 'from chat', at: 1 });
    const kept = { ...original, status: 'kept' as const, keptAt: 2, updatedAt: 2 };
    const keep = await vault.notes.save(kept, { actor: 'user', action: 'keep', why: 'kept in inbox', at: 2 });

    await vault.notes.undo(keep.id, 3);
    const restored = await vault.notes.get(original.id);
    const { hlc: restoredStamp, ...restoredFields } = restored!;
    const { hlc: _originalStamp, ...originalFields } = original;
    expect(restoredFields).toEqual(originalFields);
    // The restored version is a new change: its stamp is later than the one it undid.
    const keptStamp = ((await vault.notes.history(original.id))[1]!.after as NoteRecord).hlc;
    expect(restoredStamp > keptStamp).toBe(true);
    const history = await vault.notes.history(original.id);
    expect(history.map((h) => h.action)).toEqual(['extract', 'keep', 'undo']);

    // Undoing the creation removes the note; undoing that undo brings it back.
    const removal = await vault.notes.undo(created.id, 4);
    expect(await vault.notes.get(original.id)).toBeUndefined();
    expect(await vault.db.tombstones.get(['notes', original.id])).toMatchObject({ table: 'notes', id: original.id });
    await vault.notes.undo(removal.id, 5);
    expect(await vault.notes.get(original.id)).toMatchObject(originalFields);
    vault.db.close();
  });

  it('refuses to undo a change that is not in the history', async () => {
    const vault = await openVault(`notes-missing-${Date.now()}`);
    await expect(vault.notes.undo('hist_missing', 1)).rejects.toMatchObject({ code: 'store/not-found' });
    vault.db.close();
  });
});
