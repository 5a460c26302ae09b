import type { CapturePayload } from '../capture/payload';
import type { Role } from '../records';
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
  /** What a captured chat would store: the text after write-time safety, and which messages the vault holds already. */
  previewCapture(payload: CapturePayload): Promise<CapturePreview>;
  /** Stores a capture through the importer (staged, published in one step, reported), after the person confirmed. */
  saveCapture(payload: CapturePayload): Promise<CaptureResult>;
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
}

export interface CaptureResult {
  conversationId: string;
  /** Null when nothing was new (nothing was written). */
  importId: string | null;
  added: number;
  unchanged: number;
}
