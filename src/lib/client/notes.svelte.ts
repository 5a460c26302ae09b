import { liveQuery, type Subscription } from 'dexie';
import type { HistoryRecord, NoteRecord } from '../core/records';
import { vaultViews } from '../store/views/vault-views';
import { errors } from './errors.svelte';
import { filterNotes, type NotesFilter } from './notes-view';
import { vaultWorker } from './vault-worker';

export type { NotesFilter } from './notes-view';

/**
 * The Notes screen's state: live notes (kept by default; archived and superseded, discarded),
 * a search over them, and the selected note's history with undo for every entry. The cleaning
 * sweep's stored proposals and the pins are curation.svelte.ts.
 */
export class NotesController {
  all = $state<NoteRecord[]>([]);
  loaded = $state(false);
  filter = $state<NotesFilter>('kept');
  query = $state('');
  /** Only the notes of this conversation (opened from its page); null: every note. */
  conversationId = $state<string | null>(null);
  selectedId = $state<string | null>(null);
  history = $state<HistoryRecord[]>([]);
  busy = $state(false);
  private subscription: Subscription | null = null;
  private historySubscription: Subscription | null = null;

  readonly shown = $derived(filterNotes(this.all, this.filter, this.query, this.conversationId));

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
}

let instance: NotesController | null = null;

export function notesScreen(): NotesController {
  instance ??= new NotesController();
  return instance;
}
