/**
 * The vault worker's API: the vault file (export, restore, merge, sync), and every write the screens
 * ask for that is not an import: what a person does to notes (keep, edit and keep, discard, apply a
 * curation proposal, undo) and the preferences the screens set. One worker writes them, on its own
 * connection, serialized with restores and merges; the page only reads (store/views).
 */
import type { NoteChange } from '../curate/changes';
import type { Category } from '../extract/units';
import type { HistoryActor } from '../records';
import type { CurationApi } from './curate-api';
import type { VaultFileApi } from './vault-file';
import type { VaultsApi } from './vaults';

export interface KeepRequest {
  id: string;
  /** The edited text, when the person edited the candidate before keeping it. */
  text?: string;
  /** Keep a candidate that contradicts a kept note as replacing it (the sweep proposes the supersession). */
  replaces?: boolean;
}

/** What one action changed: the history entries that undo exactly it, and the notes it touched. */
export interface ActionOutcome {
  historyIds: string[];
  noteIds: string[];
}

/** Settings a screen may write (the others belong to the services that own them). */
export const PREFERENCE_KEYS = [
  'llm.choice',
  'storage.persistRequested',
  'device.recall.target',
  'device.recall.format',
  'device.recall.funnel',
  'device.recall.hints',
  'device.recall.appendPrompt',
  'device.recall.flaggedLines',
  'vault.syncFolder',
  'vault.syncSeenExportedAt',
  'vault.syncSeenDigest',
  'vault.syncEncrypted',
  'vault.syncIntervalMinutes',
  'vault.reminderDays',
  'vault.backupOffered',
  'device.inbox.review',
] as const;

export type PreferenceKey = (typeof PREFERENCE_KEYS)[number];

export interface NotesApi {
  keep(requests: KeepRequest[]): Promise<ActionOutcome>;
  discard(ids: string[]): Promise<ActionOutcome>;
  /** Splits a candidate into one candidate per claim and retires it (issue 17's quality gate). */
  split(id: string): Promise<ActionOutcome>;
  /** Restores each note to its exact state before those history entries (the undo is itself in the history). */
  undo(historyIds: string[]): Promise<ActionOutcome>;
  /** Applies a curation proposal's changes; a prune comes only after the person confirmed it. */
  applyChanges(changes: NoteChange[], actor: HistoryActor): Promise<ActionOutcome>;
  /**
   * What an agent in the page asked to remember, once the person allowed it: a provisional
   * candidate in the Inbox (core/agent/remembered-note.ts), never a kept note. `already` when the
   * same text was there.
   */
  remember(text: string, category?: Category): Promise<RememberedCandidate>;
}

export interface RememberedCandidate {
  id: string;
  text: string;
  category: string;
  already: boolean;
}

export interface PreferencesApi {
  /** `value` must have the setting's type (settings-repo.ts); an unknown key is refused. */
  setPreference(key: PreferenceKey, value: unknown): Promise<void>;
}

export interface VaultApi extends VaultFileApi, NotesApi, PreferencesApi, VaultsApi, CurationApi {}
