import type { CapturePayload } from '../core/capture/payload';
import type { Role } from '../core/records';
import { createImportSink } from './capture-import-sink';
import { mainVault } from './vault';

/**
 * The seam between the capture page and what stores a capture. The page produces a validated
 * `CapturePayload` and calls `previewCapture` (what would be stored) and, after the person
 * confirms, `saveCapture`. The sink is the importer (capture-import-sink.ts): the same write-time
 * safety, ids, staging and report as a file import.
 */
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

export interface CaptureSink {
  preview(payload: CapturePayload): Promise<CapturePreview>;
  save(payload: CapturePayload): Promise<CaptureResult>;
}

let sink: CaptureSink | null = null;

function currentSink(): CaptureSink {
  sink ??= createImportSink(mainVault);
  return sink;
}

/** Replaces the sink (the importer at start-up; a test double). */
export function setCaptureSink(next: CaptureSink | null): void {
  sink = next;
}

export function previewCapture(payload: CapturePayload): Promise<CapturePreview> {
  return currentSink().preview(payload);
}

export function saveCapture(payload: CapturePayload): Promise<CaptureResult> {
  return currentSink().save(payload);
}
