import { liveQuery, type Subscription } from 'dexie';
import { planSweep, type SweepProposal } from '../core/curate/sweep';
import { sweepInputFrom } from '../core/curate/sweep-input';
import type { HistoryRecord, NoteRecord } from '../core/records';
import { vaultViews } from '../store/views/vault-views';
import { errors } from './errors.svelte';
import { filterNotes, type NotesFilter } from './notes-view';
import { vaultWorker } from './vault-worker';

export type { NotesFilter } from './notes-view';

/**
 * The Notes screen's state: live notes (kept by default; archived and superseded, discarded),
 * a search over them, the selected note's history with undo for every entry, and the cleaning
 * sweep's proposals (computed from the notes on this page; applied only when the person accepts,
 * deletions only after a confirmation).
 */
export class NotesController {
  all = $state<NoteRecord[]>([]);
  loaded = $state(false);
  filter = $state<NotesFilter>('kept');
  query = $state('');
  selectedId = $state<string | null>(null);
  history = $state<HistoryRecord[]>([]);
  busy = $state(false);
  private subscription: Subscription | null = null;
  private historySubscription: Subscription | null = null;

  readonly shown = $derived(filterNotes(this.all, this.filter, this.query));
  readonly proposals = $derived(this.loaded ? planSweep(sweepInputFrom(this.all, Date.now())) : []);

  start(): void {
    if (this.subscription) return;
    void vaultViews().then((views) => {
      this.subscription = liveQuery(() => views.notes()).subscribe({
        next: (notes) => {
          this.all = notes;
          this.loaded = true;
        },
        error: (error: unknown) => errors.report(error, 'reading notes'),
      });
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.historySubscription?.unsubscribe();
    this.subscription = null;
    this.historySubscription = null;
  }

  select(noteId: string | null): void {
    this.selectedId = noteId;
    this.historySubscription?.unsubscribe();
    this.historySubscription = null;
    this.history = [];
    if (!noteId) return;
    void vaultViews().then((views) => {
      if (this.selectedId !== noteId) return;
      this.historySubscription = liveQuery(() => views.history(noteId)).subscribe({
        next: (entries) => (this.history = entries),
        error: (error: unknown) => errors.report(error, 'reading a note history'),
      });
    });
  }

  private async run(context: string, work: () => Promise<unknown>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      await work();
    } catch (error) {
      errors.report(error, context);
    } finally {
      this.busy = false;
    }
  }

  /** Restores the note to its exact state before that change (the undo is itself in the history). */
  undo(historyId: string): Promise<void> {
    return this.run('undoing a change', () => vaultWorker().call('undo', [[historyId]]));
  }

  /** Applies a sweep proposal's changes (a prune must come with the person's confirmation). */
  accept(proposal: SweepProposal, confirmed = false): Promise<void> {
    return this.run('applying a curation proposal', async () => {
      if (proposal.needsConfirmation && !confirmed) return;
      await vaultWorker().call('applyChanges', [$state.snapshot(proposal.changes) as typeof proposal.changes, 'curator']);
    });
  }
}

let instance: NotesController | null = null;

export function notesScreen(): NotesController {
  instance ??= new NotesController();
  return instance;
}
