/**
 * What a person does to notes, as the vault worker runs it: keep (a candidate becomes an engram),
 * edit and keep, discard, apply a curation proposal, undo. Each action is one transaction with its
 * history (store/note-actions.ts) and queues the index update of the notes it touched.
 */
import type { ActionOutcome, KeepRequest, NotesApi } from '../../core/api/vault-api';
import type { NoteChange } from '../../core/curate/changes';
import type { HistoryActor } from '../../core/records';
import { applyNoteChanges, discardCandidates, keepCandidates, undoChanges } from '../../store/note-actions';
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

  async undo(historyIds: string[]): Promise<ActionOutcome> {
    return undoChanges(await this.vault(), historyIds, this.now());
  }

  async applyChanges(changes: NoteChange[], actor: HistoryActor): Promise<ActionOutcome> {
    return applyNoteChanges(await this.vault(), changes, { actor, now: this.now() });
  }
}
