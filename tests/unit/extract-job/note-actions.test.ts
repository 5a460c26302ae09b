import { afterEach, describe, expect, it } from 'vitest';
import { INDEX_JOBS, type IndexUpdatePayload } from '../../../src/lib/core/api/index-api';
import { HELD_FLAG, withSourceFlags } from '../../../src/lib/core/curate/held';
import { inDefaultRetrieval } from '../../../src/lib/core/curate/provenance';
import { planSweep } from '../../../src/lib/core/curate/sweep';
import { sweepInputFrom } from '../../../src/lib/core/curate/sweep-input';
import { candidateFlags } from '../../../src/lib/core/extract/candidate-note';
import type { NoteRecord, ProposalRecord } from '../../../src/lib/core/records';
import { contentHash } from '../../../src/lib/core/text/normalize';
import { applyNoteChanges, discardCandidates, keepCandidates, splitCandidate, undoChanges } from '../../../src/lib/store/note-actions';
import type { Vault } from '../../../src/lib/store/vault';
import { readCandidates } from '../../../src/lib/services/index/candidates';
import { CurationService } from '../../../src/lib/services/notes/curation-service';
import { isIndexedNote } from '../../../src/lib/services/index/documents';
import { extractAndStore, termNeighbours } from '../../../src/lib/services/extraction/extract-job';
import { freshVault, GARDEN_TRANSCRIPT, importText } from './helpers';

const vaults: Vault[] = [];
afterEach(() => {
  for (const v of vaults.splice(0)) v.db.close();
});

async function withCandidates(text = GARDEN_TRANSCRIPT): Promise<{ v: Vault; notes: NoteRecord[] }> {
  const v = await freshVault();
  vaults.push(v);
  const [id] = await importText(v, text);
  const { notes } = await extractAndStore({ vault: v, neighbours: termNeighbours(v), llm: () => null }, id!);
  await v.db.jobs.clear();
  return { v, notes };
}

/** After the candidates were extracted (history is ordered by time). */
const T = Date.now() + 60_000;

const withoutStamp = (n: NoteRecord | undefined) => (n ? { ...n, hlc: '' } : n);

async function queuedNoteIds(v: Vault): Promise<string[]> {
  const jobs = await v.db.jobs.where('type').equals(INDEX_JOBS.update).toArray();
  return jobs.flatMap((j) => (j.payload as IndexUpdatePayload).noteIds ?? []);
}

describe('keep, edit and keep, discard, undo', () => {
  it('keeping makes an engram (provenance 1.0) and queues index.update with its id', async () => {
    const { v, notes } = await withCandidates();
    const target = notes[0]!;
    const outcome = await keepCandidates(v, [{ id: target.id }], T + 5_000);
    const kept = (await v.db.notes.get(target.id))!;
    expect(kept).toMatchObject({ status: 'kept', tier: 'engram', confidence: 1, keptAt: T + 5_000, text: target.text });
    expect(outcome.historyIds).toHaveLength(1);
    expect(await queuedNoteIds(v)).toEqual([target.id]);
    // The index's read model serves it as an engram note.
    const [candidate] = await readCandidates(v, [target.id]);
    expect(candidate).toMatchObject({ id: target.id, kind: 'note', tier: 'engram' });
  });

  it('edit and keep stores the new text with its own hash and fresh flags', async () => {
    const { v, notes } = await withCandidates();
    const target = notes[0]!;
    await keepCandidates(v, [{ id: target.id, text: '  Prune the maple in late February.  ' }], T + 7);
    const kept = (await v.db.notes.get(target.id))!;
    expect(kept.text).toBe('Prune the maple in late February.');
    expect(kept.contentHash).toBe(await contentHash('Prune the maple in late February.'));
    expect(kept.flags).toContain('edited');
    expect((await v.notes.history(target.id)).map((h) => h.action)).toEqual(['extract', 'edit-and-keep']);
    await expect(keepCandidates(v, [{ id: notes[1]!.id, text: '   ' }], T + 8)).rejects.toMatchObject({ code: 'input/invalid' });
  });

  it('undo restores the exact prior state of every note an action touched', async () => {
    const { v, notes } = await withCandidates();
    const before = await Promise.all(notes.map((n) => v.db.notes.get(n.id)));
    const all = await keepCandidates(
      v,
      notes.map((n) => ({ id: n.id })),
      T + 10,
    );
    expect(all.historyIds).toHaveLength(notes.length);
    await undoChanges(v, all.historyIds, T + 11);
    const after = await Promise.all(notes.map((n) => v.db.notes.get(n.id)));
    expect(after.map(withoutStamp)).toEqual(before.map(withoutStamp));
    // The undo is itself in the history, and the index is told about every note again.
    expect((await v.notes.history(notes[0]!.id)).map((h) => h.action)).toEqual(['extract', 'keep', 'undo']);
    expect((await queuedNoteIds(v)).sort()).toEqual([...notes.map((n) => n.id), ...notes.map((n) => n.id)].sort());
  });

  it('discard keeps the record out of the Inbox and of recall; undo brings the candidate back', async () => {
    const { v, notes } = await withCandidates();
    const target = notes[0]!;
    const outcome = await discardCandidates(v, [target.id], T + 3);
    expect((await v.db.notes.get(target.id))?.status).toBe('discarded');
    expect(await readCandidates(v, [target.id])).toEqual([]);
    // Keeping or discarding a note that is no longer a candidate does nothing.
    expect((await keepCandidates(v, [{ id: target.id }], T + 4)).historyIds).toEqual([]);
    await undoChanges(v, outcome.historyIds, T + 5);
    expect(withoutStamp(await v.db.notes.get(target.id))).toEqual(withoutStamp(target));
  });
});

describe('the quality gate where keeps are written', () => {
  const TWO = "User: I've decided we will move the launch to March. The budget is capped at 40k euros.\nAssistant: Noted.";

  /** A two-claim candidate, as a model extractor may write one (the rule-based extractor splits claims itself). */
  async function multiClaim(): Promise<{ v: Vault; note: NoteRecord; others: NoteRecord[] }> {
    const { v, notes } = await withCandidates(TWO);
    const [first, ...others] = notes;
    const text = 'We will move the launch to March. The budget is capped at 40k euros.';
    const note = { ...first!, text, flags: candidateFlags(text, null, []), contentHash: await contentHash(text) };
    await v.notes.save(note, { actor: 'extractor', action: 'extract', why: 'test: a two-claim unit', at: T });
    await v.db.jobs.clear();
    return { v, note: (await v.db.notes.get(note.id))!, others };
  }

  it('refuses a keep with a blocking flag, names it, and keeps nothing of that request', async () => {
    const { v, note, others } = await multiClaim();
    const request = [...others.map((n) => ({ id: n.id })), { id: note.id }];
    await expect(keepCandidates(v, request, T + 1)).rejects.toMatchObject({
      code: 'curate/gate-refused',
      detail: { blocked: [{ id: note.id, flags: ['several-claims'] }] },
    });
    expect((await v.db.notes.toArray()).filter((n) => n.status === 'kept')).toEqual([]);
    // Edited to one claim, it is kept.
    await keepCandidates(v, [{ id: note.id, text: 'We will move the launch to March.' }], T + 2);
    expect((await v.db.notes.get(note.id))?.status).toBe('kept');
  });

  it('a stored promote proposal (from an earlier sweep or another device) cannot keep a blocked candidate', async () => {
    const { v, note, others } = await multiClaim();
    const promote = (target: NoteRecord, id: string): ProposalRecord => ({
      id,
      sweepId: 'sweep-old',
      createdAt: T,
      status: 'pending',
      type: 'promote',
      noteIds: [target.id],
      reasons: ['Copied into packages often.'],
      needsConfirmation: false,
      changes: [{ recordId: target.id, action: 'promote', why: 'test', before: target, after: { ...target, status: 'kept', keptAt: T } }],
      key: `promote:${target.id}`,
      decidedAt: null,
      historyIds: [],
      checkpointId: null,
    });
    const clean = (await v.db.notes.get(others[0]!.id))!;
    await v.db.proposals.bulkPut([promote(note, 'prop_blocked'), promote(clean, 'prop_clean')]);
    const curation = new CurationService(async () => v, { now: () => T + 1 });
    await expect(curation.applyProposal('prop_blocked', false)).rejects.toMatchObject({
      code: 'curate/gate-refused',
      detail: { blocked: [{ id: note.id, flags: ['several-claims'] }] },
    });
    expect((await v.db.notes.get(note.id))?.status).toBe('provisional');
    expect((await v.db.proposals.get('prop_blocked'))?.status).toBe('pending');
    // Applying all promotions skips the blocked one (left pending) and applies the rest.
    expect(await curation.applyAllProposals('promote')).toMatchObject({ applied: 1, conflicts: 1 });
    expect((await v.db.notes.get(note.id))?.status).toBe('provisional');
    expect((await v.db.notes.get(clean.id))?.status).toBe('kept');
    // Nor can a change applied directly through the notes API.
    await expect(applyNoteChanges(v, promote(note, 'x').changes, { actor: 'curator', now: T + 2 })).rejects.toMatchObject({
      code: 'curate/gate-refused',
    });
  });

  it('split writes one candidate per claim with the provenance, retires the original, and undo restores it', async () => {
    const { v, note, others } = await multiClaim();
    const before = await v.db.notes.get(note.id);
    const outcome = await splitCandidate(v, note.id, T + 3);
    expect(outcome.historyIds).toHaveLength(3);
    const created = new Set(
      (await v.db.history.where('id').anyOf(outcome.historyIds).toArray()).filter((h) => h.before === null).map((h) => h.recordId),
    );
    const pieces = (await v.db.notes.toArray()).filter((n) => created.has(n.id));
    expect(pieces.map((p) => p.text).sort()).toEqual(['The budget is capped at 40k euros.', 'We will move the launch to March.'].sort());
    for (const p of pieces) {
      expect(p).toMatchObject({ status: 'provisional', category: note.category, conversationId: note.conversationId, flags: [] });
      expect(p.sourceMessageIds).toEqual(note.sourceMessageIds);
    }
    expect((await v.db.notes.get(note.id))?.status).toBe('discarded');
    // One history entry per record the split wrote, so undo can reverse each.
    const entries = await v.db.history.bulkGet(outcome.historyIds.slice());
    expect(entries.map((h) => h?.recordId).sort()).toEqual([note.id, ...pieces.map((p) => p.id)].sort());
    expect(entries.map((h) => h?.action)).toEqual(['split', 'split', 'split']);
    expect((await queuedNoteIds(v)).sort()).toEqual([note.id, ...pieces.map((p) => p.id)].sort());
    // Each piece can be kept as it is.
    const keep = await keepCandidates(v, [{ id: pieces[0]!.id }], T + 4);
    // Undoing the split now would delete the piece kept since: refused, and none of it applied.
    await expect(undoChanges(v, outcome.historyIds, T + 5)).rejects.toMatchObject({ code: 'store/conflict' });
    expect((await v.db.notes.get(pieces[0]!.id))?.status).toBe('kept');
    expect((await v.db.notes.get(pieces[1]!.id))?.status).toBe('provisional');
    expect((await v.db.notes.get(note.id))?.status).toBe('discarded');
    expect(await v.db.tombstones.get(['notes', pieces[0]!.id])).toBeUndefined();
    // Undoing the later keep first, the split undoes: the original is back, both pieces gone.
    await undoChanges(v, keep.historyIds, T + 6);
    await undoChanges(v, outcome.historyIds, T + 7);
    expect(withoutStamp(await v.db.notes.get(note.id))).toEqual(withoutStamp(before));
    expect(await v.db.notes.get(pieces[0]!.id)).toBeUndefined();
    expect(await v.db.notes.get(pieces[1]!.id)).toBeUndefined();
    // A single claim cannot be split; a note no longer in the Inbox neither.
    await expect(splitCandidate(v, others[0]!.id, T + 8)).rejects.toMatchObject({ code: 'input/invalid' });
    await expect(splitCandidate(v, pieces[1]!.id, T + 9)).rejects.toMatchObject({ code: 'store/not-found' });
  });
});

describe('supersession and the cleaning sweep', () => {
  /** A kept Postgres decision (kept at T + 100), then a second chat whose decision candidate contradicts it. */
  async function contradictedDecision(): Promise<{ v: Vault; older: NoteRecord; newer: NoteRecord }> {
    const { v, notes } = await withCandidates("User: I've decided we will use Postgres for the garden database.\nAssistant: Fine.");
    const older = notes.find((n) => n.category === 'Decisions')!;
    await keepCandidates(v, [{ id: older.id }], T + 100);
    const [id2] = await importText(
      v,
      "User: I've decided we will not use Postgres for the garden database.\nAssistant: Noted.",
      'second.txt',
    );
    const { notes: later } = await extractAndStore({ vault: v, neighbours: termNeighbours(v), llm: () => null }, id2!);
    const newer = later.find((n) => n.category === 'Decisions')!;
    return { v, older, newer };
  }

  it('an accepted supersession archives the older note out of default retrieval, and undo restores both', async () => {
    const { v, older, newer } = await contradictedDecision();
    // A later conversation's candidate contradicts the kept note: the decision stage says so.
    expect(newer.review?.proposal).toMatchObject({ action: 'supersede', targetId: older.id });
    // The gate refuses keeping a contradiction as it is; the person keeps it as replacing the older note.
    await expect(keepCandidates(v, [{ id: newer.id }], T + 150)).rejects.toMatchObject({ code: 'curate/gate-refused' });
    await keepCandidates(v, [{ id: newer.id, replaces: true }], T + 200);

    const all = await v.db.notes.toArray();
    const proposals = planSweep(sweepInputFrom(all, T + 300));
    const supersede = proposals.find((p) => p.type === 'supersede')!;
    expect(supersede).toMatchObject({ newerId: newer.id, olderId: older.id, needsConfirmation: false });
    const beforeOlder = await v.db.notes.get(older.id);
    const beforeNewer = await v.db.notes.get(newer.id);
    const applied = await applyNoteChanges(v, supersede.changes, { actor: 'curator', now: T + 300 });
    const archived = (await v.db.notes.get(older.id))!;
    expect(archived).toMatchObject({ status: 'superseded', supersededBy: newer.id });
    expect(inDefaultRetrieval(archived)).toBe(false);
    expect(await readCandidates(v, [older.id])).toEqual([]);
    expect((await v.db.notes.get(newer.id))?.supersedes).toBe(older.id);

    await undoChanges(v, applied.historyIds, T + 400);
    expect(withoutStamp(await v.db.notes.get(older.id))).toEqual(withoutStamp(beforeOlder));
    expect(withoutStamp(await v.db.notes.get(newer.id))).toEqual(withoutStamp(beforeNewer));
  });

  it('a contradiction edited away is kept as a plain addition: no flag, no supersession for the sweep', async () => {
    const { v, older, newer } = await contradictedDecision();
    expect(newer.flags).toContain('contradicts');
    // The person edits it into something that no longer conflicts: the gate lets it through.
    await keepCandidates(v, [{ id: newer.id, text: 'The garden database needs a nightly backup.' }], T + 200);
    const kept = (await v.db.notes.get(newer.id))!;
    expect(kept.status).toBe('kept');
    expect(kept.flags).not.toContain('contradicts');
    expect(kept.review?.proposal).toEqual({ action: 'add' });
    const input = sweepInputFrom(await v.db.notes.toArray(), T + 300);
    expect(input.acceptedSupersessions).toEqual([]);
    expect(planSweep(input).filter((p) => p.type === 'supersede')).toEqual([]);
    expect((await v.db.notes.get(older.id))?.status).toBe('kept');
  });

  it('a stale proposal is refused rather than overwriting a newer change', async () => {
    const { v, notes } = await withCandidates();
    await keepCandidates(v, [{ id: notes[0]!.id }], T + 1);
    const note = (await v.db.notes.get(notes[0]!.id))!;
    const change = { recordId: note.id, action: 'archive', why: 'test', before: note, after: { ...note, status: 'archived' as const } };
    await keepCandidates(v, [], T + 2);
    await v.notes.save({ ...note, text: 'changed meanwhile' }, { actor: 'user', action: 'edit', why: 'test', at: T + 3 });
    await expect(applyNoteChanges(v, [change], { actor: 'curator', now: T + 4 })).rejects.toMatchObject({ code: 'store/conflict' });
  });
});

describe('a candidate held because it came from a flagged message', () => {
  it('stays out of retrieval whatever sets it kept, until a person keeps it in the Inbox (the flags stay, the hold goes)', async () => {
    const { v, notes } = await withCandidates();
    const target = notes[0]!;
    // Held the way extraction holds a candidate citing a flagged message.
    const held: NoteRecord = { ...target, flags: withSourceFlags(target.flags, [['injection:ignore-instructions']]) };
    await v.db.notes.put(held);
    const stored = (await v.db.notes.get(held.id))!;

    // Kept by anything but a person's keep (here a curation change applied as is): still not retrievable.
    const promoted = await applyNoteChanges(
      v,
      [
        {
          recordId: held.id,
          action: 'promote',
          why: 'test',
          before: stored,
          after: { ...stored, status: 'kept', keptAt: T, updatedAt: T },
        },
      ],
      { actor: 'curator', now: T },
    );
    const keptButHeld = (await v.db.notes.get(held.id))!;
    expect(keptButHeld).toMatchObject({ status: 'kept' });
    expect(keptButHeld.flags).toContain(HELD_FLAG);
    expect(isIndexedNote(keptButHeld)).toBe(false);
    expect(await readCandidates(v, [held.id])).toEqual([]);

    // Back in the Inbox, a person keeps it: it is retrievable, and still says what was found.
    await undoChanges(v, promoted.historyIds, T + 1_000);
    await keepCandidates(v, [{ id: held.id }], T + 2_000);
    const kept = (await v.db.notes.get(held.id))!;
    expect(kept.flags).not.toContain(HELD_FLAG);
    expect(kept.flags).toContain('injection:ignore-instructions');
    expect(isIndexedNote(kept)).toBe(true);
    expect((await readCandidates(v, [held.id])).map((c) => c.id)).toEqual([held.id]);
  });
});
