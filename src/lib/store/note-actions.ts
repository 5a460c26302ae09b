import { indexUpdateJob } from '../core/api/index-api';
import type { ActionOutcome, KeepRequest } from '../core/api/vault-api';
import { historyFor, type NoteChange } from '../core/curate/changes';
import { liftHold } from '../core/curate/held';
import { claimPieces, keepBlocks, settledKeep, splitChanges, type KeepIntent } from '../core/curate/keep-gate';
import { discardedNote, keptNote } from '../core/extract/candidate-note';
import { fail } from '../core/errors';
import { newId } from '../core/ids';
import type { CheckpointReason, HistoryActor, NoteRecord } from '../core/records';
import { contentHash } from '../core/text/normalize';
import { boundCheckpointTables, CheckpointWriter } from './checkpoints';
import { safeNote } from './safe-note';
import { runTx } from './transaction';
import type { Vault } from './vault';

/**
 * What a person does to notes in the Inbox and on the Notes screen: keep (a candidate becomes an
 * engram), edit and keep, discard, apply a curation proposal, undo. Each action writes its note
 * changes and their history in one transaction and returns the history ids, so the undo toast can
 * reverse exactly that action; then it queues `index.update` for the notes it touched, so recall
 * sees a kept engram (and stops seeing an undone one).
 */
async function queueIndex(vault: Vault, noteIds: readonly string[], now: number): Promise<void> {
  if (noteIds.length > 0) await vault.jobs.enqueue(indexUpdateJob({ noteIds }), now);
}

export interface ApplyOptions {
  actor: HistoryActor;
  now: number;
  /** Log the before-images in this checkpoint (opened or, with a key, added to): a sweep's proposals. */
  checkpoint?: { reason: CheckpointReason; label: string; key: string };
  /** The stored sweep proposal these changes carry out: marked applied in the same transaction. */
  proposalId?: string;
  /** What the person asked for each candidate they keep (an edit, keeping as replacing), for the gate. */
  keeps?: ReadonlyMap<string, KeepIntent>;
}

/**
 * The quality gate where every keep is written, whoever asks: a stored promote proposal (from an
 * earlier sweep, or merged from another device) or a change applied through the notes API cannot
 * keep a blocked candidate as it is any more than the Inbox can.
 */
function gateKeep(current: NoteRecord | null, after: NoteRecord | null, intent: KeepIntent | undefined): void {
  if (current?.status !== 'provisional' || after?.status !== 'kept') return;
  const flags = keepBlocks(current, intent ?? { text: after.text });
  if (flags.length === 0) return;
  fail(
    'curate/gate-refused',
    `That candidate cannot be kept as it is (${flags.join(', ')}): split it into its claims or edit it in the Inbox.`,
    {
      blocked: [{ id: current.id, flags }],
    },
  );
}

/** Writes `changes` (after = null deletes, with a tombstone) and one history entry each, in one transaction. */
export async function applyNoteChanges(vault: Vault, proposed: readonly NoteChange[], options: ApplyOptions): Promise<ActionOutcome> {
  const { db } = vault;
  // Whatever text a change writes passes write-time safety first (a person's edit, a proposal).
  const changes = await Promise.all(proposed.map(async (change) => ({ ...change, after: await safeNote(change.after) })));
  const history = historyFor(changes, { now: options.now, actor: options.actor, newId: () => newId('hist') });
  await runTx(
    db,
    'rw',
    [db.notes, db.history, db.tombstones, db.proposals, db.checkpoints, db.checkpointLog],
    async () => {
      const writer = options.checkpoint
        ? await CheckpointWriter.open(boundCheckpointTables(), { ...options.checkpoint, now: options.now })
        : null;
      for (const [i, change] of changes.entries()) {
        const current = (await db.notes.get(change.recordId)) ?? null;
        if ((current?.hlc ?? null) !== (change.before?.hlc ?? null)) {
          fail('store/conflict', 'The note changed since this was proposed; look at it again.', { id: change.recordId });
        }
        gateKeep(current, change.after, options.keeps?.get(change.recordId));
        if (writer) await writer.log('notes', change.recordId, current);
        if (change.after) {
          const after: NoteRecord = { ...change.after, hlc: vault.clock.stamp() };
          await db.notes.put(after);
          history[i] = { ...history[i]!, after };
        } else {
          // One get, not logRows' bulkGet: a bulkGet on the compound key ended this transaction under
          // fake-indexeddb ("Transaction has already completed"), so no deletion could be applied.
          if (writer)
            await writer.log('tombstones', ['notes', change.recordId], (await db.tombstones.get(['notes', change.recordId])) ?? null);
          await db.notes.delete(change.recordId);
          await db.tombstones.put({ table: 'notes', id: change.recordId, hlc: vault.clock.stamp(), deletedAt: options.now });
        }
      }
      // Only Dexie's own promises may be awaited here (an await of a plain value lets the transaction commit).
      if (writer) for (const entry of history) await writer.log('history', entry.id, null);
      await db.history.bulkAdd(history);
      if (options.proposalId) {
        const proposal = await db.proposals.get(options.proposalId);
        if (!proposal || proposal.status !== 'pending')
          fail('store/conflict', 'That proposal was decided already; look at the list again.');
        if (writer) await writer.log('proposals', proposal.id, proposal);
        await db.proposals.put({
          ...proposal,
          status: 'applied',
          decidedAt: options.now,
          historyIds: history.map((h) => h.id),
          checkpointId: writer?.checkpoint.id ?? null,
        });
      }
      if (writer) await writer.finish();
    },
    { label: 'changing notes' },
  );
  const noteIds = [...new Set(changes.map((c) => c.recordId))];
  await queueIndex(vault, noteIds, options.now);
  return { historyIds: history.map((h) => h.id), noteIds };
}

async function provisional(vault: Vault, ids: readonly string[]): Promise<NoteRecord[]> {
  const rows = await vault.db.notes.bulkGet(ids.slice());
  return rows.filter((n): n is NoteRecord => n !== undefined && n.status === 'provisional');
}

/**
 * Keeps candidates (edited text where given): each becomes a kept engram. The quality gate decides
 * here, where keeps are written (core/curate/keep-gate.ts): when any candidate would be kept with a
 * blocking flag, nothing is kept and the refusal names each one with its flags.
 */
export async function keepCandidates(vault: Vault, requests: readonly KeepRequest[], now: number): Promise<ActionOutcome> {
  const notes = await provisional(
    vault,
    requests.map((r) => r.id),
  );
  const edits = new Map(requests.filter((r) => r.text !== undefined).map((r) => [r.id, r.text!.trim()]));
  const replacing = new Set(requests.filter((r) => r.replaces === true).map((r) => r.id));
  const blocked = notes
    .map((note) => ({ id: note.id, flags: keepBlocks(note, { text: edits.get(note.id), replaces: replacing.has(note.id) }) }))
    .filter((b) => b.flags.length > 0);
  if (blocked.length > 0) {
    const what = [...new Set(blocked.flatMap((b) => b.flags))].join(', ');
    fail(
      'curate/gate-refused',
      blocked.length === 1
        ? `That candidate cannot be kept as it is (${what}): split it into its claims or edit it.`
        : `${blocked.length} candidates cannot be kept as they are (${what}): split or edit them. Nothing was kept.`,
      { blocked },
    );
  }
  const changes: NoteChange[] = [];
  const keeps = new Map<string, KeepIntent>();
  for (const note of notes) {
    const text = edits.get(note.id);
    if (text !== undefined && text.length === 0) fail('input/invalid', 'An engram needs some text: discard it instead.');
    const hash = text !== undefined && text !== note.text ? await contentHash(text) : undefined;
    const intent = { text, replaces: replacing.has(note.id) };
    keeps.set(note.id, intent);
    const kept = settledKeep(note, intent, keptNote(note, { now, text, contentHash: hash }));
    // A person keeping it is what lets a candidate from a flagged message in (core/curate/held.ts).
    const after = { ...kept, flags: liftHold(kept.flags) };
    const edited = after.text !== note.text;
    changes.push({
      recordId: note.id,
      action: edited ? 'edit-and-keep' : 'keep',
      why: edited ? 'Kept from the Inbox after an edit.' : 'Kept from the Inbox.',
      before: note,
      after,
    });
  }
  return applyNoteChanges(vault, changes, { actor: 'user', now, keeps });
}

/**
 * Splits a candidate into its claims (the splitter the 'several-claims' flag uses): one new
 * candidate per claim with the original's provenance, the original retired, one transaction with
 * a history entry per record (undo removes the pieces and brings the original back).
 */
export async function splitCandidate(vault: Vault, id: string, now: number): Promise<ActionOutcome> {
  const [note] = await provisional(vault, [id]);
  if (!note) fail('store/not-found', 'That candidate is no longer in the Inbox.', { id });
  const texts = claimPieces(note.text);
  if (texts.length < 2) fail('input/invalid', 'That candidate states one claim; edit it instead of splitting it.', { id });
  const pieces = await Promise.all(texts.map(async (text) => ({ id: newId('note'), text, contentHash: await contentHash(text) })));
  return applyNoteChanges(vault, splitChanges(note, pieces, now), { actor: 'user', now });
}

/** Discards candidates: they stay as records (status discarded), out of the Inbox and of recall. */
export async function discardCandidates(vault: Vault, ids: readonly string[], now: number): Promise<ActionOutcome> {
  const notes = await provisional(vault, ids);
  const changes: NoteChange[] = notes.map((note) => ({
    recordId: note.id,
    action: 'discard',
    why: 'Discarded from the Inbox.',
    before: note,
    after: discardedNote(note, now),
  }));
  return applyNoteChanges(vault, changes, { actor: 'user', now });
}

/**
 * Undoes the changes of one action, newest first, each restoring the exact prior state, in one
 * transaction: when a note changed since (a split piece kept since), nothing is undone.
 */
export async function undoChanges(vault: Vault, historyIds: readonly string[], now: number): Promise<ActionOutcome> {
  const entries = await vault.notes.undoAll([...historyIds].reverse(), now);
  const noteIds = [...new Set(entries.map((e) => e.recordId))];
  await queueIndex(vault, noteIds, now);
  return { historyIds: entries.map((e) => e.id), noteIds };
}

/**
 * Pins or unpins a note (from Notes or a Recall item): a pinned note is Core (it never fades, and
 * is Core in every package where it passes the gate), never archived or pruned by the sweep. A
 * stamped change with history, so it travels in the vault file and can be undone.
 */
export async function setPinned(vault: Vault, noteId: string, pinned: boolean, now: number): Promise<ActionOutcome> {
  const note = await vault.notes.get(noteId);
  if (!note) fail('store/not-found', 'That note is no longer in the vault.', { id: noteId });
  if (note.pinned === pinned) return { historyIds: [], noteIds: [] };
  const change: NoteChange = {
    recordId: note.id,
    action: pinned ? 'pin' : 'unpin',
    why: pinned ? 'Pinned: it never fades and is Core in every package where it passes the gate.' : 'Unpinned.',
    before: note,
    after: { ...note, pinned, updatedAt: now },
  };
  return applyNoteChanges(vault, [change], { actor: 'user', now });
}
