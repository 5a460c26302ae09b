import type { CapturePayload } from '../capture/payload';
import type { Role, Source } from '../records';
import type { ImportReport } from '../import/report';

/** One input of an import, as the main thread hands it to the worker (File and Blob clone cheaply). */
export interface ImportFileInput {
  name: string;
  blob: Blob;
}

export interface ImportProgressEvent {
  importId: string;
  fileIndex: number;
  fileCount: number;
  fileName: string;
  bytesRead: number;
  bytesTotal: number | null;
  conversations: number;
  messages: number;
  ratePerSecond: number | null;
  etaMs: number | null;
}

/** The import worker (workers/import.worker.ts): parsing and raw-first storage off the main thread. */
export interface ImportApi {
  ping(): Promise<'pong'>;
  /** Resolves once leftovers of imports interrupted by a closed tab have been rolled back. */
  ready(): Promise<{ rolledBack: number }>;
  /** `onProgress` is a comlink proxy. Resolves with the report, failed files included. */
  importFiles(files: ImportFileInput[], onProgress: (progress: ImportProgressEvent) => void): Promise<ImportReport>;
  /** Cancels the running import: the file being read is rolled back, earlier files stay. */
  cancel(): Promise<void>;
  /**
   * What a captured chat would store: the text after write-time safety, which messages the vault
   * holds already, and what it would do to a conversation already in the vault.
   */
  previewCapture(payload: CapturePayload): Promise<CapturePreview>;
  /**
   * Stores a capture through the importer (staged, published in one step, reported), after the
   * person confirmed. A capture that would change a conversation already in the vault (add to it,
   * rename it, move its messages) is refused (`capture/unconfirmed`, nothing written) unless
   * `options.changeExisting` names that conversation.
   */
  saveCapture(payload: CapturePayload, options?: SaveCaptureOptions): Promise<CaptureResult>;
}

export interface CapturePreviewMessage {
  ordinal: number;
  role: Role;
  text: string;
  /** False when the vault already holds this message (same position and content). */
  isNew: boolean;
}

export interface CapturePreview {
  conversationId: string;
  title: string;
  messages: CapturePreviewMessage[];
  newCount: number;
  existingCount: number;
  /** The conversation of the same id the vault holds already, and what storing would do to it; null when there is none. */
  existing: ExistingConversationChange | null;
}

/**
 * What storing a capture would do to a conversation the vault already holds (the same source and
 * site id). A pasted capture can claim any source and any id, so the page shows this and asks
 * before it adds to, renames or reorders someone's stored conversation.
 */
export interface ExistingConversationChange {
  conversationId: string;
  /** Its title in the vault now. */
  title: string;
  source: Source;
  /** Visible-thread messages it holds now. */
  messageCount: number;
  /** The import that first stored it (its label and start), when the vault still has that record. */
  storedBy: { label: string; at: number } | null;
  /** Messages the capture would add to it. */
  added: number;
  /** The title it would get, when storing renames it; null when the title stays. */
  renamedTo: string | null;
  /** Its stored messages the capture would move to another position or branch. */
  moved: number;
}

/** True when storing would add to, rename or reorder the existing conversation. */
export function changesExisting(change: ExistingConversationChange | null | undefined): change is ExistingConversationChange {
  return !!change && (change.added > 0 || change.renamedTo !== null || change.moved > 0);
}

export interface SaveCaptureOptions {
  /** The id of the existing conversation the person agreed to change (CapturePreview.existing). */
  changeExisting?: string | null;
}

export interface CaptureResult {
  conversationId: string;
  /** Null when nothing was new (nothing was written). */
  importId: string | null;
  added: number;
  unchanged: number;
}
