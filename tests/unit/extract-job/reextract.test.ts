import { afterEach, describe, expect, it } from 'vitest';
import { EXTRACT_JOB } from '../../../src/lib/core/api/extract-api';
import { EXTRACTOR_VERSION } from '../../../src/lib/core/extract/version';
import type { NoteRecord } from '../../../src/lib/core/records';
import { discardCandidates, keepCandidates, undoChanges } from '../../../src/lib/store/note-actions';
import type { Vault } from '../../../src/lib/store/vault';
import { extractAndStore, termNeighbours } from '../../../src/lib/services/extraction/extract-job';
import {
  isStaleCandidate,
  queueReextraction,
  REEXTRACT_PRIORITY,
  staleConversations,
} from '../../../src/lib/services/extraction/reextract';
import { freshVault, GARDEN_TRANSCRIPT, importText } from './helpers';

const vaults: Vault[] = [];
afterEach(() => {
  for (const v of vaults.splice(0)) v.db.close();
});

const NOW = 1_800_000_000_000;

/** The vault as an older extractor left it: every candidate of the conversation stamped `version`. */
async function asIfExtractedBy(v: Vault, conversationId: string, version: number | undefined): Promise<void> {
  await v.db.notes
    .where('conversationId')
    .equals(conversationId)
    .modify((note) => {
      if (!note.review) return;
      if (version === undefined) delete note.review.extractorVersion;
      else note.review.extractorVersion = version;
    });
}

async function setUp() {
  const v = await freshVault();
  vaults.push(v);
  const [id] = await importText(v, GARDEN_TRANSCRIPT);
  await v.db.jobs.clear();
  const deps = { vault: v, neighbours: termNeighbours(v), llm: () => null, now: () => NOW };
  await extractAndStore(deps, id!);
  return { v, id: id!, deps };
}

const byId = async (v: Vault, id: string): Promise<NoteRecord | undefined> => v.db.notes.get(id);

describe('re-extraction after an extractor version change', () => {
  it('finds nothing to do when every candidate came from the current version', async () => {
    const { v } = await setUp();
    expect(await staleConversations(v)).toEqual([]);
    expect(await queueReextraction(v, () => NOW)).toBe(0);
    expect(await v.db.jobs.count()).toBe(0);
  });

  it('queues one low-priority extraction per conversation with older candidates (version 1 has no stamp), once', async () => {
    const { v, id } = await setUp();
    await asIfExtractedBy(v, id, undefined);
    expect(await staleConversations(v)).toEqual([id]);
    expect(await queueReextraction(v, () => NOW)).toBe(1);
    expect(await queueReextraction(v, () => NOW)).toBe(1);
    const jobs = await v.db.jobs.toArray();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ type: EXTRACT_JOB, payload: { conversationId: id }, priority: REEXTRACT_PRIORITY });
    expect(REEXTRACT_PRIORITY).toBeGreaterThan(60);
  });

  it('restamps what the new version proposes again, removes what it no longer proposes, and leaves kept, discarded and model candidates alone', async () => {
    const { v, id, deps } = await setUp();
    const first = (await v.db.notes.where('conversationId').equals(id).toArray()).sort((a, b) => a.id.localeCompare(b.id));
    expect(first.length).toBeGreaterThanOrEqual(4);
    await keepCandidates(v, [{ id: first[0]!.id }], NOW);
    await discardCandidates(v, [first[1]!.id], NOW);
    await asIfExtractedBy(v, id, 1);
    // What version 1 proposed and the current version does not, and a model's candidate of version 1.
    const gone: NoteRecord = {
      ...first[2]!,
      id: 'note-old-only',
      text: 'Pruning is an old-version unit.',
      contentHash: 'h-old',
      review: { ...first[2]!.review!, extractorVersion: 1 },
    };
    const model: NoteRecord = {
      ...first[3]!,
      id: 'note-from-model',
      text: 'A unit the model proposed.',
      contentHash: 'h-model',
      review: { ...first[3]!.review!, extractor: 'llm', llmId: 'fake', extractorVersion: 1 },
    };
    await v.db.notes.bulkPut([gone, model]);
    const kept = (await byId(v, first[0]!.id))!;
    const discarded = (await byId(v, first[1]!.id))!;
    expect(isStaleCandidate(kept)).toBe(false);
    expect(isStaleCandidate(discarded)).toBe(false);
    expect(isStaleCandidate(model)).toBe(false);
    expect(isStaleCandidate(gone)).toBe(true);

    const { result } = await extractAndStore(deps, id);

    expect(result.replaced).toEqual({ restamped: first.length - 2, removed: 1 });
    expect(result.candidates).toBe(0);
    expect(await byId(v, 'note-old-only')).toBeUndefined();
    expect(await v.db.tombstones.get(['notes', 'note-old-only'])).toBeDefined();
    expect(await byId(v, first[0]!.id)).toEqual(kept);
    expect(await byId(v, first[1]!.id)).toEqual(discarded);
    expect(await byId(v, 'note-from-model')).toEqual(model);
    for (const note of first.slice(2)) expect((await byId(v, note.id))?.review?.extractorVersion).toBe(EXTRACTOR_VERSION);
    expect(await staleConversations(v)).toEqual([]);

    const removal = (await v.notes.history('note-old-only')).find((h) => h.action === 're-extract:remove')!;
    expect(removal).toMatchObject({ actor: 'extractor', after: null });
    await undoChanges(v, [removal.id], NOW + 1);
    expect((await byId(v, 'note-old-only'))?.text).toBe(gone.text);
  });

  it('skips conversations that are no longer visible', async () => {
    const { v, id } = await setUp();
    await asIfExtractedBy(v, id, 1);
    await v.db.conversations.update(id, { state: 'staged' });
    expect(await staleConversations(v)).toEqual([]);
  });
});
