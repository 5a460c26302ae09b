import { describe, expect, it } from 'vitest';
import { compareHlc } from '../../../src/lib/core/vaultfile/hlc';
import { mergeVaultFile } from '../../../src/lib/store/vaultfile-merge';
import { reminderState, vaultFileStatus } from '../../../src/lib/store/vaultfile-status';
import { note } from '../../factories/records';
import { sampleVault } from '../../factories/vault-state';
import { closeVault, exportBytes, fileStream, openTestVault, putState, stampAt } from './helpers';
import { getMessage } from '../../../src/lib/store/messages-store';

const DAY = 24 * 60 * 60 * 1000;

/** The tables counted from now on (Dexie's count on a table or a where-clause), in call order. */
function countedTables(vault: Awaited<ReturnType<typeof openTestVault>>): () => string[] {
  const seen: string[] = [];
  for (const table of vault.db.tables) {
    const count = table.count.bind(table);
    table.count = (() => {
      seen.push(table.name);
      return count();
    }) as typeof table.count;
    const where = table.where.bind(table);
    table.where = ((index: string) => {
      const clause = where(index);
      const equals = clause.equals.bind(clause);
      clause.equals = ((key: never) => {
        const collection = equals(key);
        const countRange = collection.count.bind(collection);
        collection.count = (() => {
          seen.push(table.name);
          return countRange();
        }) as typeof collection.count;
        return collection;
      }) as typeof clause.equals;
      return clause;
    }) as typeof table.where;
  }
  return () => [...seen];
}

describe('deleteRecords', () => {
  it('removes the rows and writes their tombstones (fresh stamps) and the note history in one transaction', async () => {
    const vault = await openTestVault();
    await putState(vault, sampleVault());
    const before = vault.clock.current;
    expect(
      await vault.deleteRecords('notes', ['note-1', 'never-existed'], { actor: 'curator', action: 'discard', why: 'duplicate', at: 5 }),
    ).toBe(1);
    expect(await vault.notes.get('note-1')).toBeUndefined();
    const tombs = await vault.db.tombstones
      .where('[table+id]')
      .anyOf([
        ['notes', 'note-1'],
        ['notes', 'never-existed'],
      ])
      .toArray();
    expect(tombs).toHaveLength(2);
    for (const t of tombs) expect(compareHlc(t.hlc, before)).toBeGreaterThan(0);
    const history = await vault.notes.history('note-1');
    expect(history.at(-1)).toMatchObject({ action: 'discard', actor: 'curator', after: null, before: { id: 'note-1' } });

    // A failing transaction writes neither the deletion nor the tombstone.
    vault.db.tombstones.hook('creating', () => {
      throw new Error('disk full');
    });
    await expect(vault.deleteRecords('messages', ['msg-1'])).rejects.toBeTruthy();
    expect(await getMessage(vault.db, 'msg-1')).toBeDefined();
    await closeVault(vault);
  });

  it('works inside a caller transaction that covers the same tables', async () => {
    const vault = await openTestVault();
    await putState(vault, sampleVault());
    await vault.db.transaction('rw', [vault.db.chunks, vault.db.tombstones, vault.db.history], async () => {
      await vault.deleteRecords('chunks', ['chunk-1']);
    });
    expect(await vault.db.chunks.get('chunk-1')).toBeUndefined();
    expect(await vault.db.tombstones.get(['chunks', 'chunk-1'])).toBeDefined();
    await closeVault(vault);
  });
});

describe('"changed since the last export" and the reminder', () => {
  it('is derived from the records: false right after an export, true after an edit, a deletion or a merge', async () => {
    const vault = await openTestVault();
    await putState(vault, sampleVault());
    expect((await vaultFileStatus(vault, 'always')).changedSinceExport).toBe(true); // never exported
    await exportBytes(vault);
    const status = await vaultFileStatus(vault, 'always');
    expect(status).toMatchObject({ changedSinceExport: false, lastExportAt: expect.any(Number) });
    expect(status.counts).toMatchObject({ conversations: 1, messages: 4, notes: 1 });

    await vault.notes.save({ ...(await vault.notes.get('note-1'))!, text: 'Edited.' }, { actor: 'user', action: 'edit', why: 'x', at: 1 });
    expect((await vaultFileStatus(vault, 'always')).changedSinceExport).toBe(true);
    await exportBytes(vault);
    await vault.deleteRecords('messages', ['msg-2']);
    expect((await vaultFileStatus(vault, 'always')).changedSinceExport).toBe(true);
    await exportBytes(vault);

    const other = await openTestVault();
    await putState(other, { notes: [note({ id: 'from-elsewhere', hlc: stampAt(0, 'old') })] });
    const { bytes } = await exportBytes(other);
    await mergeVaultFile(vault, fileStream(bytes));
    expect((await vaultFileStatus(vault, 'always')).changedSinceExport).toBe(true);
    await closeVault(vault);
    await closeVault(other);
  });

  it('is due when changed and not exported for the configured days, unless snoozed; cheap checks skip the scan', async () => {
    const base = { now: 100 * DAY, days: 7, since: 90 * DAY, changed: true, snoozedUntil: null };
    expect(reminderState(base).due).toBe(true);
    expect(reminderState({ ...base, since: 95 * DAY }).due).toBe(false);
    expect(reminderState({ ...base, changed: false }).due).toBe(false);
    expect(reminderState({ ...base, snoozedUntil: 100 * DAY + 1 }).due).toBe(false);
    expect(reminderState({ ...base, since: null }).due).toBe(false);

    const vault = await openTestVault();
    await putState(vault, sampleVault());
    await exportBytes(vault);
    const lastExportAt = (await vault.settings.get('vault.lastExportAt'))!;
    await vault.notes.save({ ...(await vault.notes.get('note-1'))!, text: 'Edited.' }, { actor: 'user', action: 'edit', why: 'x', at: 1 });
    // Not yet due: nothing is counted (a count walks its table), so nothing is said about the counts.
    const counted = countedTables(vault);
    expect(await vaultFileStatus(vault, 'if-due', lastExportAt + DAY)).toMatchObject({
      counts: null,
      changedSinceExport: null,
      reminder: { due: false },
    });
    expect(counted()).toEqual([]);
    expect(await vaultFileStatus(vault, 'if-due', lastExportAt + 8 * DAY)).toMatchObject({
      counts: { conversations: 1, messages: 4, notes: 1 },
      changedSinceExport: true,
      reminder: { due: true, days: 7 },
    });
    // Due: the vault is counted, but the vectors (derived, neither shown nor compared) are not.
    expect(counted()).toContain('chunks');
    expect(counted()).not.toContain('vectors');
    expect((await vaultFileStatus(vault, 'always')).counts).not.toHaveProperty('vectors');
    await vault.settings.set('vault.reminderDays', 30);
    expect((await vaultFileStatus(vault, 'if-due', lastExportAt + 8 * DAY)).reminder.due).toBe(false);
    await closeVault(vault);
  });
});
