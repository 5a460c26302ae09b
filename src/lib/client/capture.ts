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

export function previewCapture(payload: CapturePayload): Promise<CapturePreview> {
  return importWorker().call('previewCapture', [payload]);
}

export function saveCapture(payload: CapturePayload, options: SaveCaptureOptions = {}): Promise<CaptureResult> {
  return importWorker().call('saveCapture', [payload, options], 10 * 60_000);
}
