import { liveQuery } from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { VaultViews } from '../../../src/lib/store/views/vault-views';
import { ConversationsRepo } from '../../../src/lib/store/conversations-repo';
import { sampleVault } from '../../factories/vault-state';
import { note } from '../../factories/records';
import { closeVault, openTestVault, putState } from '../vaultfile-store/helpers';

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("the vault's counts for headers and empty states", () => {
  it('are read in parts a live query watches apart: a note written re-reads the note counts, not the conversations', async () => {
    const vault = await openTestVault();
    await putState(vault, sampleVault());
    const views = new VaultViews(vault);
    expect(await views.conversationCounts()).toEqual({ conversations: 1, messages: 2 }); // the sample's messageCount
    expect(await views.noteCounts()).toEqual({ notes: 0, inbox: 1 });
    expect(await views.importCount()).toBe((await vault.db.imports.toArray()).length);

    // The messages' count reads every visible conversation row (10,000 at the heavy archive).
    const conversationReads = vi.spyOn(ConversationsRepo.prototype, 'countMessages');
    const seen: { conversations: unknown[]; notes: unknown[] } = { conversations: [], notes: [] };
    const subscriptions = [
      liveQuery(() => views.conversationCounts()).subscribe((v) => seen.conversations.push(v)),
      liveQuery(() => views.noteCounts()).subscribe((v) => seen.notes.push(v)),
    ];
    await settle();
    expect(conversationReads).toHaveBeenCalledTimes(1);
    await vault.db.notes.put(note({ id: 'candidate-1', status: 'provisional' }));
    await settle();
    expect(seen.notes.at(-1)).toEqual({ notes: 0, inbox: 2 });
    expect(conversationReads).toHaveBeenCalledTimes(1);
    const [first] = await vault.db.conversations.toArray();
    await vault.db.conversations.put({ ...first!, id: 'another', externalId: 'another', messageCount: 3 });
    await settle();
    expect(seen.conversations.at(-1)).toEqual({ conversations: 2, messages: 5 });
    expect(conversationReads.mock.calls.length).toBeGreaterThan(1);
    for (const s of subscriptions) s.unsubscribe();
    conversationReads.mockRestore();
    await closeVault(vault);
  });
});
