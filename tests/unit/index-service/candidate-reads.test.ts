/**
 * readCandidates with the index's hints (each document's kind and a chunk's conversation, from the
 * catalog) reads the chunks, notes and conversations tables side by side instead of one after the
 * other, and returns exactly what it returns without them, whether the hints are right, stale or
 * missing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChunkRecord, NoteRecord } from '../../../src/lib/core/records';
import { readCandidates, type CandidateHint } from '../../../src/lib/services/index/candidates';
import type { Vault } from '../../../src/lib/store/vault';
import { note } from '../../factories/records';
import { freshVault, GARDEN_TRANSCRIPT, importText } from '../extract-job/helpers';

const vaults: Vault[] = [];
afterEach(() => {
  for (const v of vaults.splice(0)) v.db.close();
});

function chunk(id: string, conversationId: string | null, extra: Partial<ChunkRecord> = {}): ChunkRecord {
  return {
    id,
    parentType: 'message',
    parentId: `${id}-message`,
    conversationId,
    messageIds: [`${id}-message`],
    speakers: ['User'],
    text: `chunk ${id}`,
    headingPath: [],
    tokenCount: 3,
    tier: 'chat',
    contentHash: `h-${id}`,
    createdAt: 1,
    hlc: '',
    ...extra,
  };
}

/** A vault with chunks of a visible and a staged (not yet visible) conversation, a resource's chunk, and notes kept, provisional and discarded. */
async function filled(): Promise<{ vault: Vault; ids: string[]; visible: string; hidden: string }> {
  const vault = await freshVault();
  vaults.push(vault);
  const [visible] = await importText(vault, GARDEN_TRANSCRIPT, 'a.txt');
  const [hidden] = await importText(vault, 'User: Which tent should we take?\nAssistant: The two-person one.', 'b.txt');
  await vault.db.conversations.update(hidden!, { state: 'staged' });
  const notes: NoteRecord[] = [
    note({ id: 'n-kept', status: 'kept', conversationId: visible! }),
    note({ id: 'n-loose', status: 'kept', conversationId: null }),
    note({ id: 'n-inbox', status: 'provisional', conversationId: visible! }),
    note({ id: 'n-hidden-inbox', status: 'provisional', conversationId: hidden! }),
    note({ id: 'n-gone', status: 'discarded', conversationId: visible! }),
    note({ id: 'res', status: 'kept', tier: 'resource', title: 'Pruning guide', conversationId: null }),
  ];
  await vault.db.notes.bulkPut(notes);
  await vault.db.chunks.bulkPut([
    chunk('c1#0', visible!),
    chunk('c2#0', visible!),
    chunk('c3#0', hidden!),
    chunk('res#0', null, { parentType: 'resource', parentId: 'res', tier: 'resource', messageIds: [] }),
  ]);
  const ids = ['c1#0', 'n-kept', 'c3#0', 'n-loose', 'res#0', 'n-inbox', 'n-hidden-inbox', 'n-gone', 'c2#0', 'missing'];
  return { vault, ids, visible: visible!, hidden: hidden! };
}

/** Logs when each table's bulkGet starts and ends. */
function traceReads(vault: Vault): string[] {
  const log: string[] = [];
  for (const name of ['chunks', 'notes', 'conversations'] as const) {
    const table = vault.db[name] as unknown as { bulkGet(keys: string[]): Promise<unknown[]> };
    const original = table.bulkGet.bind(table);
    table.bulkGet = async (keys: string[]) => {
      log.push(`start ${name}`);
      const rows = await original(keys);
      log.push(`end ${name}`);
      return rows;
    };
  }
  return log;
}

describe('readCandidates with the index’s hints', () => {
  it('returns the same records with right, stale, partial or no hints', async () => {
    const { vault, ids, visible, hidden } = await filled();
    const plain = await readCandidates(vault, ids);
    // The reads filter as before: the staged conversation's chunk and Inbox note, the discarded note
    // and the unknown id are left out; the rest keep the asked order.
    expect(plain.map((c) => c.id)).toEqual(['c1#0', 'n-kept', 'n-loose', 'res#0', 'n-inbox', 'c2#0']);
    const right: CandidateHint = (id) =>
      id.startsWith('n-')
        ? { kind: 'note' }
        : id.includes('#')
          ? { kind: 'chunk', conversationId: id === 'c3#0' ? hidden : id === 'res#0' ? null : visible }
          : undefined;
    // Every kind and conversation wrong: notes named chunks, chunks named notes, conversations swapped or unknown.
    const stale: CandidateHint = (id) =>
      id.startsWith('n-')
        ? { kind: 'chunk', conversationId: 'conv-that-is-gone' }
        : { kind: 'note', conversationId: id === 'c3#0' ? visible : hidden };
    const partial: CandidateHint = (id) => (id === 'c1#0' || id === 'n-kept' ? right(id) : undefined);
    for (const hint of [right, stale, partial]) {
      expect(await readCandidates(vault, ids, hint)).toEqual(plain);
    }
  });

  it('issues the three tables’ reads together when the hints are right, and one after the other without them', async () => {
    const { vault, visible } = await filled();
    const ids = ['c1#0', 'n-kept'];
    const right: CandidateHint = (id) => (id === 'n-kept' ? { kind: 'note' } : { kind: 'chunk', conversationId: visible });
    const log = traceReads(vault);
    await readCandidates(vault, ids, right);
    expect(log.slice(0, 3).every((e) => e.startsWith('start'))).toBe(true);
    expect(log.filter((e) => e.startsWith('start')).sort()).toEqual(['start chunks', 'start conversations', 'start notes']);
    log.length = 0;
    await readCandidates(vault, ids);
    expect(log).toEqual(['start chunks', 'end chunks', 'start notes', 'end notes', 'start conversations', 'end conversations']);
  });

  it('has its first reads issued by the time it returns its promise, before anything of it is awaited', async () => {
    const { vault, visible } = await filled();
    const right: CandidateHint = (id) => (id === 'n-kept' ? { kind: 'note' } : { kind: 'chunk', conversationId: visible });
    const log = traceReads(vault);
    const pending = readCandidates(vault, ['c1#0', 'n-kept'], right);
    // retrieve.ts starts this read and then runs the vector scan, which holds the thread: a read not
    // issued by now would wait for the scan.
    expect(log.filter((e) => e.startsWith('start')).sort()).toEqual(['start chunks', 'start conversations', 'start notes']);
    expect((await pending).map((c) => c.id)).toEqual(['c1#0', 'n-kept']);
  });
});
