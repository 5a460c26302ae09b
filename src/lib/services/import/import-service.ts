/**
 * Everything that brings conversations in, as the import worker runs it: export files (parsed,
 * staged, published in one step) and captured chats (the same importer). While an import runs it
 * holds a Web Lock named after it, so a tab opened later can tell an import interrupted by a closed
 * tab (lock gone) from one still running elsewhere, and roll the former back before anything else.
 */
import type {
  CapturePreview,
  CaptureResult,
  ImportApi,
  ImportFileInput,
  ImportProgressEvent,
  SaveCaptureOptions,
} from '../../core/api/import';
import type { CapturePayload } from '../../core/capture/payload';
import { vaultError } from '../../core/errors';
import type { ImportReport } from '../../core/import/report';
import { queueAfterPublish } from '../../store/extract-queue';
import { importLockName, rollbackInterrupted } from '../../store/import-recovery';
import { runImport } from '../../store/importer';
import type { Preparer } from '../../store/prepare-conversation';
import type { Vault } from '../../store/vault';
import { createImportSink, type CaptureSink } from '../capture/capture-sink';
import { holdLock } from '../locks';

export class ImportService implements ImportApi {
  readonly #vault: Promise<Vault>;
  readonly #recovered: Promise<number>;
  readonly #locks: LockManager | undefined;
  readonly #capture: CaptureSink;
  readonly #preparer: (() => Preparer) | undefined;
  #running: AbortController | null = null;

  /** `preparer`: where a large file's conversations are made safe and hashed (the import worker passes a prepare worker's). */
  constructor(vault: Promise<Vault>, locks: LockManager | undefined, preparer?: () => Preparer) {
    this.#vault = vault;
    this.#locks = locks;
    this.#preparer = preparer;
    this.#recovered = vault.then((v) => rollbackInterrupted(v, locks));
    this.#capture = createImportSink(
      async () => {
        await this.#recovered;
        return vault;
      },
      { onStarted: (importId) => this.#hold(importId) },
    );
  }

  async #hold(importId: string): Promise<() => void> {
    const vault = await this.#vault;
    const hold = await holdLock(this.#locks, importLockName(vault.db.name, importId));
    return () => hold?.release();
  }

  async ping(): Promise<'pong'> {
    return 'pong';
  }

  async ready(): Promise<{ rolledBack: number }> {
    return { rolledBack: await this.#recovered };
  }

  async importFiles(files: ImportFileInput[], onProgress: (progress: ImportProgressEvent) => void): Promise<ImportReport> {
    if (this.#running) throw vaultError('import/failed', 'Another import is still running in this tab; wait for it or cancel it.');
    await this.#recovered;
    const vault = await this.#vault;
    const controller = new AbortController();
    this.#running = controller;
    try {
      const inputs = files.map((f) => ({ name: f.name, size: f.blob.size, bytes: f.blob.stream() }));
      return await runImport(vault, inputs, {
        signal: controller.signal,
        onProgress,
        onStarted: (importId) => this.#hold(importId),
        // The index worker leases index.update, then extract.conversation, within a second of each file becoming visible.
        onPublished: queueAfterPublish(vault),
        ...(this.#preparer ? { preparer: this.#preparer } : {}),
      });
    } finally {
      this.#running = null;
    }
  }

  async cancel(): Promise<void> {
    this.#running?.abort();
  }

  previewCapture(payload: CapturePayload): Promise<CapturePreview> {
    return this.#capture.preview(payload);
  }

  saveCapture(payload: CapturePayload, options?: SaveCaptureOptions): Promise<CaptureResult> {
    return this.#capture.save(payload, options);
  }
}
