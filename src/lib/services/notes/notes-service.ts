/**
 * What a person does to notes, as the vault worker runs it: keep (a candidate becomes an engram),
 * edit and keep, discard, apply a curation proposal, undo. Each action is one transaction with its
 * history (store/note-actions.ts) and queues the index update of the notes it touched.
 */
import type { ActionOutcome, KeepRequest, NotesApi, RememberedCandidate } from '../../core/api/vault-api';
import { rememberedNote } from '../../core/agent/remembered-note';
import { vaultError } from '../../core/errors';
import type { Category } from '../../core/extract/units';
import type { NoteChange } from '../../core/curate/changes';
import type { HistoryActor } from '../../core/records';
import { applyNoteChanges, discardCandidates, keepCandidates, splitCandidate, undoChanges } from '../../store/note-actions';
import type { Vault } from '../../store/vault';

export class NotesService implements NotesApi {
  constructor(
    private readonly vault: () => Promise<Vault>,
    private readonly now: () => number = Date.now,
  ) {}

  async keep(requests: KeepRequest[]): Promise<ActionOutcome> {
    return keepCandidates(await this.vault(), requests, this.now());
  }

  async discard(ids: string[]): Promise<ActionOutcome> {
    return discardCandidates(await this.vault(), ids, this.now());
  }

  async split(id: string): Promise<ActionOutcome> {
    return splitCandidate(await this.vault(), id, this.now());
  }

  async undo(historyIds: string[]): Promise<ActionOutcome> {
    return undoChanges(await this.vault(), historyIds, this.now());
  }

  async applyChanges(changes: NoteChange[], actor: HistoryActor): Promise<ActionOutcome> {
    return applyNoteChanges(await this.vault(), changes, { actor, now: this.now() });
  }

  async remember(text: string, category?: Category): Promise<RememberedCandidate> {
    const vault = await this.vault();
    const note = await rememberedNote({ text, ...(category ? { category } : {}), now: this.now() });
    if (note.text === '') throw vaultError('input/invalid', 'There is nothing to remember in that text.');
    const existing = await vault.notes.get(note.id);
    if (!existing) {
      await vault.notes.save(note, {
        actor: 'user',
        action: 'remember',
        why: 'An agent in the page asked to remember it; the person allowed it.',
        at: this.now(),
      });
    }
    return { id: note.id, text: note.text, category: note.category, already: existing !== undefined };
  }
}
