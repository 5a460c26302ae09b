/**
 * The triples table (issue 12, criterion 2): the subject-relation-object triples of every extracted
 * unit a person may still keep (Inbox candidates and kept notes; not discarded, held or pasted
 * documents), written by core/graph/triples.ts, with the unit's speaker as the first person.
 *
 * Written when a unit is written: by the extraction job for its new candidates, by the index update
 * for a note a person kept, edited, discarded or deleted (note actions queue it), and for the whole
 * vault by the index rebuild (after a restore or merge) and by `index.triples` (queued at start when
 * the rows were written by another recipe, e.g. by an older version). Read by the entities they
 * name: recall's triple list (`tripleList`) and the entity panel's facts.
 */
import { Yielder } from '../../core/jobs/yield';
import { TRIPLE_RECIPE, type Triple } from '../../core/graph/triple';
import { linkEntities } from '../../core/graph/entity-linker';
import { contentWords } from '../../core/recall/text-features';
import type * as TriplesModule from '../../core/graph/triples';
import type { NoteRecord, StoredTriple } from '../../core/records';
import type { VaultDb } from '../../store/schema';
import { runTx, withStoreTimeout } from '../../store/transaction';
import { isInboxCandidate, isIndexedNote } from './documents';
import { stemmer } from 'stemmer';
import { getMessages } from '../../store/messages-store';

export const TRIPLES_SETTING = 'device.index.triples';

/** Units whose triples are kept: what a person has kept (indexed) or may still keep (the Inbox's candidates). */
export const hasTriples = (note: NoteRecord): boolean => isIndexedNote(note) || isInboxCandidate(note);

/** The triple extractor, loaded on first use (it brings compromise, core/graph/triples.ts). */
type Extractor = typeof TriplesModule.extractTriples;
let extractor: Promise<Extractor> | null = null;
function loadExtractor(): Promise<Extractor> {
  extractor ??= import('../../core/graph/triples').then((m) => m.extractTriples);
  extractor.catch(() => (extractor = null));
  return extractor;
}

/** The stored row of a unit's `n`th triple: its source, the recipe, and the entity-term keys recall finds it by. */
export function storedTriple(
  source: Pick<StoredTriple, 'noteId' | 'conversationId' | 'messageId' | 'noteHash'>,
  triple: Triple,
  n: number,
): StoredTriple {
  return {
    id: `${source.noteId}#${n}`,
    ...source,
    recipe: TRIPLE_RECIPE,
    ...triple,
    pairs: triple.entities.flatMap((entity) => triple.terms.map((term) => pairKey(entity, term))),
  };
}

/** The rows of one note's triples (none when it has no triples to keep). */
export async function tripleRows(note: NoteRecord, speaker: string | null): Promise<StoredTriple[]> {
  if (!hasTriples(note)) return [];
  const extractTriples = await loadExtractor();
  const source = {
    noteId: note.id,
    conversationId: note.conversationId,
    messageId: note.sourceMessageIds[0] ?? null,
    noteHash: note.contentHash,
  };
  return extractTriples(note.text, speaker).map((t, i) => storedTriple(source, t, i));
}

/**
 * Writes the triples of the notes with these ids as they are now (a missing note: its rows go).
 * Notes whose rows are current (same text, same recipe) are left alone; a note that gives no triple
 * has no row to say so and is read again (cheap: a unit naming no one is not parsed). Returns the
 * rows written.
 */
export async function syncTriples(db: VaultDb, noteIds: readonly string[]): Promise<number> {
  if (noteIds.length === 0) return 0;
  const ids = [...new Set(noteIds)];
  const notes = await withStoreTimeout(db.notes.bulkGet(ids), { label: 'reading notes for their triples' });
  const stored = await withStoreTimeout(db.triples.where('noteId').anyOf(ids).toArray(), { label: 'reading stored triples' });
  const storedOf = new Map<string, StoredTriple[]>();
  for (const row of stored) storedOf.set(row.noteId, [...(storedOf.get(row.noteId) ?? []), row]);
  const stale = ids.filter((id, i) => {
    const note = notes[i];
    const rows = storedOf.get(id) ?? [];
    if (!note || !hasTriples(note)) return rows.length > 0;
    return rows.length === 0 || rows.some((r) => r.noteHash !== note.contentHash || r.recipe !== TRIPLE_RECIPE);
  });
  if (stale.length === 0) return 0;
  const staleNotes = notes.filter((n): n is NoteRecord => n !== undefined && stale.includes(n.id));
  const messageIds = staleNotes.map((n) => n.sourceMessageIds[0]).filter((id): id is string => id !== undefined);
  const messages = await withStoreTimeout(getMessages(db, messageIds), { label: 'reading the speakers of notes' });
  const speakerOf = new Map(messages.filter((m) => m !== undefined).map((m) => [m.id, m.speaker ?? null]));
  const rows: StoredTriple[] = [];
  // Parsing a note takes milliseconds and a conversation has dozens: yield between them, so a
  // recall asked meanwhile (same worker) does not wait for all of them.
  const yielder = new Yielder();
  for (const note of staleNotes) {
    await yielder.maybe();
    rows.push(...(await tripleRows(note, speakerOf.get(note.sourceMessageIds[0] ?? '') ?? null)));
  }
  await runTx(
    db,
    'rw',
    db.triples,
    async () => {
      await db.triples.where('noteId').anyOf(stale).delete();
      await db.triples.bulkPut(rows);
    },
    { label: 'saving triples' },
  );
  return rows.length;
}

/** Notes read per step of `syncAllTriples`. */
const STEP = 500;

/**
 * Writes the triples of every note again where they are not current, a step of notes at a time,
 * and drops rows of notes that are gone; `clear` first drops every row (after a restore or merge).
 * Marks the table current (TRIPLES_SETTING) at the end.
 */
export async function syncAllTriples(
  db: VaultDb,
  options: { clear?: boolean; signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<{ notes: number; triples: number } | null> {
  if (options.clear) await runTx(db, 'rw', db.triples, () => db.triples.clear(), { label: 'clearing triples' });
  const ids = (await withStoreTimeout(db.notes.toCollection().primaryKeys(), { label: 'listing notes' })).map(String);
  let written = 0;
  for (let at = 0; at < ids.length; at += STEP) {
    if (options.signal?.aborted) return null;
    written += await syncTriples(db, ids.slice(at, at + STEP));
    options.onProgress?.(Math.min(ids.length, at + STEP), ids.length);
  }
  const known = new Set(ids);
  const orphans = ((await withStoreTimeout(db.triples.toCollection().keys(), { label: 'listing triples' })) as string[]).filter(
    (id) => !known.has(id.slice(0, id.lastIndexOf('#'))),
  );
  if (orphans.length) await runTx(db, 'rw', db.triples, () => db.triples.bulkDelete(orphans), { label: 'dropping triples' });
  await runTx(db, 'rw', db.settings, () => db.settings.put({ key: TRIPLES_SETTING, value: TRIPLE_RECIPE }), {
    label: 'marking triples current',
  });
  return { notes: ids.length, triples: written };
}

/**
 * Says the table is not current (the next start queues `index.triples`, which writes what is
 * missing): for a writer whose triples failed (the extractor's chunk could not load, a write failed)
 * and that must not fail its own work for them.
 */
export async function markTriplesStale(db: VaultDb): Promise<void> {
  await runTx(db, 'rw', db.settings, () => db.settings.delete(TRIPLES_SETTING), { label: 'marking triples stale' });
}

/** True when every stored triple was written by the current recipe. */
export async function triplesCurrent(db: VaultDb): Promise<boolean> {
  const row = await withStoreTimeout(db.settings.get(TRIPLES_SETTING), { label: 'reading the triples marker' });
  return row?.value === TRIPLE_RECIPE;
}

/** Rows read for one entity at most (a speaker of a long transcript may have thousands). */
const MAX_ROWS = 5_000;
/** Triples recall reads per entity-term pair at most. */
const MAX_MATCHES = 2_000;
/** Entity-term pairs a prompt is looked up by at most. */
const MAX_KEYS = 64;

/** The key a triple is found by for one of its entities and one of its terms. */
export const pairKey = (entity: string, term: string): string => `${entity}\u0000${term}`;

/** A prompt's word as the triples' terms are written (a question asks with a verb's base: "did she go"). */
const stem = (w: string): string => stemmer(w);

/** The current triples that name any of `keys` (entity keys), at most `MAX_ROWS`. */
export async function triplesAbout(db: VaultDb, keys: readonly string[]): Promise<StoredTriple[]> {
  if (keys.length === 0) return [];
  const rows = await withStoreTimeout(
    db.triples
      .where('entities')
      .anyOf([...keys])
      .limit(MAX_ROWS)
      .toArray(),
    {
      label: 'reading triples',
    },
  );
  const seen = new Set<string>();
  return rows.filter((r) => r.recipe === TRIPLE_RECIPE && !seen.has(r.id) && seen.add(r.id));
}

export interface ScoredTriple {
  triple: StoredTriple;
  /** The share of the prompt's own words (its entities' aside, stemmed) the triple's terms hold. */
  score: number;
}

/** The prompt's entities (keys) and its other content words, stemmed as the triples' terms are. */
export function promptTerms(prompt: string): { entities: string[]; asked: Set<string> } {
  const mentions = linkEntities(prompt);
  const named = new Set(mentions.flatMap((m) => m.key.split(/\s+/u)));
  const asked = new Set(
    contentWords(prompt)
      .map((w) => w.replace(/'s$/u, ''))
      .filter((w) => !named.has(w))
      .map(stem),
  );
  return { entities: mentions.map((m) => m.key), asked };
}

/**
 * The best current triples naming one of the prompt's entities and holding one of its other words,
 * at most `limit`: ranked from the entity-term index's keys alone (which of the prompt's words each
 * triple holds), then only the best rows read. Never every triple of a speaker.
 */
export async function triplesFor(db: VaultDb, prompt: string, limit: number): Promise<ScoredTriple[]> {
  const { entities, asked } = promptTerms(prompt);
  if (entities.length === 0 || asked.size === 0 || limit <= 0) return [];
  const keys = entities.flatMap((entity) => [...asked].map((term) => ({ key: pairKey(entity, term), term }))).slice(0, MAX_KEYS);
  // One keys-only read per entity-term pair (getAllKeys underneath): a cursor over all of them is
  // several times slower in fake-indexeddb, and reads nothing more.
  const found = await withStoreTimeout(
    Promise.all(keys.map(({ key }) => db.triples.where('pairs').equals(key).limit(MAX_MATCHES).primaryKeys())),
    { label: 'reading the triples index' },
  );
  const held = new Map<string, Set<string>>();
  found.forEach((ids, i) => {
    for (const id of ids) {
      const terms = held.get(String(id)) ?? new Set<string>();
      terms.add(keys[i]!.term);
      held.set(String(id), terms);
    }
  });
  const best = [...held]
    .map(([id, terms]) => ({ id, score: terms.size / asked.size }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit);
  const rows = await withStoreTimeout(db.triples.bulkGet(best.map((b) => b.id)), { label: 'reading triples' });
  return best.flatMap((b, i) => {
    const triple = rows[i];
    return triple && triple.recipe === TRIPLE_RECIPE ? [{ triple, score: b.score }] : [];
  });
}
