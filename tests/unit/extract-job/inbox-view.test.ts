import { afterEach, describe, expect, it } from 'vitest';
import { WORTH_ORDER, worthRank } from '../../../src/lib/core/curate/inbox-order';
import { discardCandidates, keepCandidates, undoChanges } from '../../../src/lib/store/note-actions';
import type { Vault } from '../../../src/lib/store/vault';
import { readInbox, reviewedSince } from '../../../src/lib/store/views/inbox-view';
import { extractAndStore, termNeighbours } from '../../../src/lib/services/extraction/extract-job';
import { PreferencesService } from '../../../src/lib/services/notes/preferences-service';
import { freshVault, GARDEN_TRANSCRIPT, importText } from './helpers';

const vaults: Vault[] = [];
afterEach(() => {
  for (const v of vaults.splice(0)) v.db.close();
});

const NOW = Date.now() + 60_000;

async function withCandidates(): Promise<Vault> {
  const v = await freshVault();
  vaults.push(v);
  const [id] = await importText(v, GARDEN_TRANSCRIPT);
  await extractAndStore({ vault: v, neighbours: termNeighbours(v), llm: () => null }, id!);
  return v;
}

describe('the Inbox view over a vault', () => {
  it('lists the stored candidates in worth order, decisions before facts, every one once', async () => {
    const v = await withCandidates();
    const groups = await readInbox(v);
    const ranks = groups.map((g) => worthRank(g.category));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(groups[0]!.category).toBe(WORTH_ORDER[0]);
    const ids = groups.flatMap((g) => g.items.map((i) => i.note.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(await v.db.notes.where('status').equals('provisional').count());
  });

  it('counts what was reviewed since a time: keeps and discards once each, not an undone one, not earlier ones', async () => {
    const v = await withCandidates();
    const ids = (await readInbox(v)).flatMap((g) => g.items.map((i) => i.note.id));
    await keepCandidates(v, [{ id: ids[0]! }], NOW - 10_000);
    expect(await reviewedSince(v, NOW)).toBe(0);
    await keepCandidates(v, [{ id: ids[1]! }, { id: ids[2]!, text: 'An edited unit.' }], NOW);
    const discarded = await discardCandidates(v, [ids[3]!], NOW + 1);
    expect(await reviewedSince(v, NOW)).toBe(3);
    await undoChanges(v, discarded.historyIds, NOW + 2);
    expect(await reviewedSince(v, NOW)).toBe(2);
    expect(await reviewedSince(v, NOW - 20_000)).toBe(3);
  });

  it('stores the review queue setting through the preferences service, and refuses a bad one', async () => {
    const v = await withCandidates();
    const prefs = new PreferencesService(async () => v);
    expect(await v.settings.get('device.inbox.review')).toEqual({ size: 20, cursorId: null });
    await prefs.setPreference('device.inbox.review', { size: 5, cursorId: 'note-x' });
    expect(await v.settings.get('device.inbox.review')).toEqual({ size: 5, cursorId: 'note-x' });
    await expect(prefs.setPreference('device.inbox.review', { size: 0, cursorId: null })).rejects.toMatchObject({
      code: 'input/invalid',
    });
    expect(await v.settings.get('device.inbox.review')).toEqual({ size: 5, cursorId: 'note-x' });
  });
});
