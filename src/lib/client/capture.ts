import type { CapturePreview, CaptureResult, SaveCaptureOptions } from '../core/api/import';
import type { CapturePayload } from '../core/capture/payload';
import { importWorker } from './import-worker';

export type { CapturePreview, CapturePreviewMessage, CaptureResult, ExistingConversationChange } from '../core/api/import';
export { changesExisting } from '../core/api/import';

/*
 * The capture page's seam to what stores a capture: the page produces a validated `CapturePayload`,
 * asks what would be stored, and after the person confirms, stores it. The import worker runs both
 * through the importer (services/capture/capture-sink.ts): the same write-time safety, ids,
 * staging, lock and report as a file import.
 */

/** What storing `payload` would add to the vault `dbName` (default this tab's vault). */
export function previewCapture(payload: CapturePayload, dbName?: string): Promise<CapturePreview> {
  return importWorker(dbName).call('previewCapture', [payload]);
}

/** Stores `payload` in the vault `dbName` (default this tab's vault), through that vault's import worker. */
export function saveCapture(payload: CapturePayload, options: SaveCaptureOptions = {}, dbName?: string): Promise<CaptureResult> {
  return importWorker(dbName).call('saveCapture', [payload, options], 10 * 60_000);
}
