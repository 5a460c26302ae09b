/**
 * The triples table end to end: written for the extraction job's candidates, kept current through
 * note actions (the index update), written again by the start-up job when an older recipe wrote them,
 * read by recall's triple list and by the entity panel.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { INDEX_JOBS } from '../../../src/lib/core/api/index-api';
import { TRIPLE_RECIPE } from '../../../src/lib/core/graph/triple';
import { discardCandidates } from '../../../src/lib/store/note-actions';
import { storedTriple, syncAllTriples, syncTriples, triplesFor, TRIPLES_SETTING } from '../../../src/lib/services/index/triples';
import { openInProcessIndex } from '../../../src/lib/services/index/in-process';
import type { StoredTriple } from '../../../src/lib/core/records';
import { CAT, GARDEN, chatVault, type ChatVault } from './chat-vault';
import { extractAndStore, termNeighbours } from '../../../src/lib/services/extraction/extract-job';
import { freshVault, importText } from '../extract-job/helpers';

let open: ChatVault | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

const lines = (rows: readonly StoredTriple[]) => rows.map((r) => `${r.subjectText} · ${r.relation} · ${r.object}`).sort();

describe('the triples table', () => {
  it("holds the candidates' triples once extracted, the first person of a chat export written as You", async () => {
    open = await chatVault([
      ['garden.txt', GARDEN],
      ['cat.txt', CAT],
    ]);
    const rows = await open.vault.db.triples.toArray();
    expect(lines(rows)).toEqual(
      expect.arrayContaining([
        'Miso · gets · wet food twice a day',
        'You · will keep · the Rachio on Wi-Fi',
        'Dr. Patel · may suggest · a weight-control formula',
      ]),
    );
    const miso = rows.find((r) => r.subjectText === 'Miso')!;
    expect(miso).toMatchObject({ subject: 'miso', recipe: TRIPLE_RECIPE, conversationId: open.ids['cat.txt'] });
    const note = (await open.vault.db.notes.get(miso.noteId))!;
    expect(miso.noteHash).toBe(note.contentHash);
    expect(miso.messageId).toBe(note.sourceMessageIds[0]);
    expect((await open.vault.db.settings.get(TRIPLES_SETTING))?.value).toBe(TRIPLE_RECIPE);
  });

  it('drops the triples of a discarded candidate through the index update', async () => {
    open = await chatVault([['cat.txt', CAT]]);
    const miso = (await open.vault.db.triples.toArray()).find((r) => r.subjectText === 'Miso')!;
    await discardCandidates(open.vault, [miso.noteId], Date.now());
    await open.index.runJobs();
    expect(await open.vault.db.triples.where('noteId').equals(miso.noteId).count()).toBe(0);
    expect(await open.vault.db.triples.count()).toBeGreaterThan(0);
  });

  it('writes again, at start, rows an older recipe wrote, and drops rows of notes that are gone', async () => {
    open = await chatVault([['cat.txt', CAT]]);
    const db = open.vault.db;
    const before = lines(await db.triples.toArray());
    await db.triples.toCollection().modify({ recipe: 'triples-0', object: 'stale' });
    await db.triples.put({ ...(await db.triples.toArray())[0]!, id: 'note_gone#0', noteId: 'note_gone' });
    await db.settings.put({ key: TRIPLES_SETTING, value: 'triples-0' });
    open.index.close();
    const reopened = await openInProcessIndex(open.vault, { rebuild: false });
    try {
      expect((await open.vault.jobs.list('pending')).map((j) => j.type)).toContain(INDEX_JOBS.triples);
      await reopened.runJobs();
    } finally {
      reopened.close();
    }
    expect(lines(await db.triples.toArray())).toEqual(before);
    expect((await db.settings.get(TRIPLES_SETTING))?.value).toBe(TRIPLE_RECIPE);
  });

  it('leaves current rows alone and clears everything on request', async () => {
    open = await chatVault([['cat.txt', CAT]]);
    const db = open.vault.db;
    const ids = (await db.notes.toCollection().primaryKeys()).map(String);
    expect(await syncTriples(db, ids)).toBe(0);
    const count = await db.triples.count();
    const again = await syncAllTriples(db, { clear: true });
    expect(again).toEqual({ notes: ids.length, triples: count });
  });
});

describe('a failure to write triples', () => {
  it('loses no candidate: the extraction stores them and marks the table stale for the next start', async () => {
    const vault = await freshVault();
    try {
      await vault.db.settings.put({ key: TRIPLES_SETTING, value: TRIPLE_RECIPE });
      vault.db.triples.hook('creating', () => {
        throw new Error('disk full');
      });
      const [id] = await importText(vault, CAT, 'cat.txt');
      const { notes } = await extractAndStore({ vault, neighbours: termNeighbours(vault), llm: () => null }, id!);
      expect(notes.length).toBeGreaterThan(0);
      expect(await vault.db.notes.count()).toBe(notes.length);
      expect(await vault.db.triples.count()).toBe(0);
      expect(await vault.db.settings.get(TRIPLES_SETTING)).toBeUndefined();
    } finally {
      await vault.db.delete();
    }
  });
});

describe('recall reads the triples', () => {
  it('lists the source of a triple about the prompt entity that says what it asks, and marks it', async () => {
    open = await chatVault([
      ['garden.txt', GARDEN],
      ['cat.txt', CAT],
    ]);
    const answer = await open.ask('What food does Miso get?');
    const marked = answer.result.items.filter((i) => i.signals.triple);
    expect(marked.length).toBeGreaterThan(0);
    expect(marked[0]!.record.text).toContain('Miso gets wet food');
    expect(marked[0]!.signals.triple).toEqual({ rank: 1, line: 'Miso · gets · wet food twice a day' });
    const off = await open.ask('What food does Miso get?', {}, { triples: false });
    expect(off.result.items.some((i) => i.signals.triple)).toBe(false);
  });

  it('shows what the units say about an entity in its links, the ones it is the subject of first', async () => {
    open = await chatVault([['cat.txt', CAT]]);
    const links = await open.index.service.entityLinks('Miso');
    expect(links?.facts[0]).toMatchObject({ subject: 'Miso', relation: 'gets', object: 'wet food twice a day', negated: false });
    expect(links?.facts.map((f) => f.object)).toContain('Miso to wet food twice a day');
  });
});

describe("triplesFor (the triple list's read)", () => {
  const row = (relation: string, object: string, id = 'n#0', terms: string[] = [], entity = 'caroline'): StoredTriple =>
    storedTriple(
      { noteId: id.split('#')[0]!, conversationId: null, messageId: null, noteHash: 'h' },
      { subject: entity, subjectText: 'Caroline', relation, object, entities: [entity], terms, negated: false },
      Number(id.split('#')[1] ?? 0),
    );
  /** The rows stored in a fresh vault, then read for `prompt` as recall reads them. */
  async function scoreTriples(prompt: string, rows: StoredTriple[]) {
    const vault = await freshVault();
    try {
      await vault.db.triples.bulkPut(rows);
      return await triplesFor(vault.db, prompt, 10);
    } finally {
      await vault.db.delete();
    }
  }

  it("scores by the share of the prompt's own words (stemmed) a triple's terms hold, the entity's name aside", async () => {
    const scored = await scoreTriples('When did Caroline go to the support group?', [
      row('went', 'to a LGBTQ support group yesterday', 'a#0', ['go', 'lgbtq', 'support', 'group', 'yesterdai']),
      row('painted', 'a sunset', 'b#0', ['paint', 'sunset']),
      row('joined', 'a group', 'c#0', ['join', 'group']),
    ]);
    expect(scored.map((s) => s.triple.id)).toEqual(['a#0', 'c#0']);
    expect(scored[0]!.score).toBe(1);
    expect(scored[1]!.score).toBeCloseTo(1 / 3);
  });

  it('finds nothing when the prompt asks nothing beyond its entities, possessives included', async () => {
    expect(await scoreTriples('Caroline?', [row('went', 'home', 'a#0', ['go', 'home'])])).toEqual([]);
    // "October's" is the entity October: its word is no match of its own.
    expect(
      await scoreTriples("Who sends the images for October's feature?", [
        row('renews', 'in October', 'a#0', ['renew', 'octob'], 'october'),
      ]),
    ).toEqual([]);
  });
});
