import type {
  ChangeCheck,
  ExportRequest,
  ExportResult,
  ExportSummary,
  ImportReport,
  ImportRequest,
  SyncRequest,
  SyncResult,
  VaultFileApi,
  VaultFileProgressFn,
  VaultFileStatus,
} from '../../core/api/vault-file';
import { SYNC_FILE_NAME } from '../../core/api/vault-file';
import { vaultScoped } from '../../core/api/vaults';
import { fail, isVaultError } from '../../core/errors';
import type { DeriveKeyFn, KdfChoice } from '../../core/vaultfile/kdf';
import type { Vault } from '../../store/vault';
import { exportVault, type VaultExport } from '../../store/vaultfile-export';
import { mergeVaultFile } from '../../store/vaultfile-merge';
import { restoreVault } from '../../store/vaultfile-restore';
import { changedSinceMark, SNOOZE_MS, vaultFileStatus, contentFingerprint } from '../../store/vaultfile-status';
import { blobDigest, digestingStream } from '../../store/vaultfile-sync';
import { vaultCounts } from '../../store/vaultfile-tables';
import { whileHolding } from '../locks';
import { countingStream, exportFileName, streamToBlob } from './vault-file-sinks';

/**
 * What the vault-file worker does, apart from comlink: export to a Blob or a folder, restore or
 * merge a Blob, sync with a folder. Kept free of worker globals so Node tests run it as is.
 * Operations take an id (for `cancel`); one runs at a time per worker, and across tabs a Web Lock
 * (where there is one) keeps two tabs from restoring or merging at once.
 */

export interface VaultFileServiceOptions {
  appVersion: string;
  /** Key derivation (default: in this thread, i.e. the worker). Tests pass a fast one. */
  deriveKey?: DeriveKeyFn;
  /** Default KDF for encrypted exports (default: the core's Argon2id default). */
  kdf?: KdfChoice;
  locks?: LockManager;
  now?: () => number;
  /** This vault's file in a sync folder (each vault has its own, core/api/vaults.ts; default the Personal vault's). */
  syncFileName?: Promise<string> | string;
}

export type VaultFileService = Omit<VaultFileApi, 'ready' | 'ping'>;

/**
 * One export or import of a vault's file at a time across tabs, per vault (vaults never wait for each
 * other); a roll-back to a checkpoint holds it too (notes/curation-service.ts).
 */
export const vaultFileLockName = (dbName: string): string => vaultScoped('engram-vault-file', dbName);
const lockName = vaultFileLockName;

/** A progress callback that never throws into the operation (the page may have gone away). */
function safeProgress(onProgress: VaultFileProgressFn | undefined): VaultFileProgressFn | undefined {
  if (!onProgress) return undefined;
  return (progress) => {
    try {
      void Promise.resolve(onProgress(progress) as unknown).catch(() => undefined);
    } catch {
      // A progress report is never worth failing the work.
    }
  };
}

const BUSY = { busy: true };

/** The service as a class: one method per API call, each a few lines over the store functions. */
export class VaultFileServiceImpl implements VaultFileService {
  private readonly now: () => number;
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly opening: Promise<Vault>,
    private readonly options: VaultFileServiceOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async status(check: ChangeCheck): Promise<VaultFileStatus> {
    return vaultFileStatus(await this.opening, check, this.now());
  }

  async snoozeReminder(): Promise<void> {
    await (await this.opening).settings.set('vault.reminderSnoozedUntil', this.now() + SNOOZE_MS);
  }

  async fingerprint(): Promise<string> {
    return contentFingerprint(await this.opening);
  }

  async exportFile(opId: string, request: ExportRequest, onProgress?: VaultFileProgressFn): Promise<ExportResult> {
    const vault = await this.opening;
    return this.#exclusive(opId, async (signal) => {
      const exported = await this.#startExport(vault, request, signal, safeProgress(onProgress));
      const { blob, bytes } = await streamToBlob(exported.stream);
      await exported.recordDone();
      return { ...exportSummary(exported, bytes), file: blob, fileName: exportFileName(exported.meta.exportedAt) };
    });
  }

  async importFile(opId: string, request: ImportRequest, onProgress?: VaultFileProgressFn): Promise<ImportReport> {
    const vault = await this.opening;
    return this.#exclusive<ImportReport>(opId, (signal) => {
      const common = {
        passphrase: request.passphrase,
        deriveKey: this.options.deriveKey,
        signal,
        onProgress: safeProgress(onProgress),
        now: this.now,
      };
      const stream = request.file.stream() as ReadableStream<Uint8Array>;
      return request.mode === 'restore' ? restoreVault(vault, stream, common) : mergeVaultFile(vault, stream, common);
    });
  }

  async syncFolder(
    opId: string,
    folder: FileSystemDirectoryHandle,
    request: SyncRequest,
    onProgress?: VaultFileProgressFn,
  ): Promise<SyncResult> {
    const vault = await this.opening;
    return this.#exclusive(opId, (signal) => this.#sync(vault, folder, request, signal, safeProgress(onProgress)));
  }

  async cancel(opId: string): Promise<boolean> {
    const controller = this.running.get(opId);
    controller?.abort();
    return controller !== undefined;
  }

  async #exclusive<T>(opId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.running.size > 0)
      fail('vault/failed', 'Another export or import of the vault file is running; wait for it or cancel it.', BUSY);
    const controller = new AbortController();
    this.running.set(opId, controller);
    try {
      const { name } = (await this.opening).db;
      const done = await whileHolding(this.options.locks, lockName(name), async () => ({ value: await work(controller.signal) }));
      if (!done) fail('vault/failed', 'Another tab is exporting or importing the vault file; try again when it has finished.', BUSY);
      return done.value;
    } finally {
      this.running.delete(opId);
    }
  }

  #startExport(vault: Vault, request: ExportRequest, signal: AbortSignal, onProgress?: VaultFileProgressFn): Promise<VaultExport> {
    const encryption =
      request.passphrase !== undefined
        ? { passphrase: request.passphrase, kdf: request.kdf ?? this.options.kdf, deriveKey: this.options.deriveKey }
        : undefined;
    return exportVault(vault, {
      vectors: request.vectors,
      appVersion: this.options.appVersion,
      encryption,
      signal,
      onProgress,
      now: this.now,
    });
  }

  /**
   * Merges the folder's file when its content digest differs from the last one read or written
   * here (never by comparing clocks: see store/vaultfile-sync.ts); then writes the vault when asked
   * and needed.
   */
  async #sync(
    vault: Vault,
    folder: FileSystemDirectoryHandle,
    request: SyncRequest,
    signal: AbortSignal,
    onProgress?: VaultFileProgressFn,
  ) {
    const result: SyncResult = { merged: null, written: null, note: 'The folder holds no vault file yet.' };
    const fileName = await (this.options.syncFileName ?? SYNC_FILE_NAME);
    const existing = await folder.getFileHandle(fileName).then(
      (handle) => handle.getFile(),
      () => null,
    );
    if (existing) {
      const digest = await blobDigest(existing);
      result.note = 'The folder holds the same file as the last one merged or written here: no file newer to merge.';
      if (digest !== (await vault.settings.get('vault.syncSeenDigest'))) {
        const stream = existing.stream() as ReadableStream<Uint8Array>;
        const options = { passphrase: request.passphrase, deriveKey: this.options.deriveKey, signal, onProgress, now: this.now };
        result.merged = await mergeVaultFile(vault, stream, options);
        result.note = null;
        await vault.settings.set('vault.syncSeenDigest', digest);
      }
    }
    const changed = await changedSinceMark(vault.db, await vault.settings.get('vault.exportMark'), await vaultCounts(vault.db));
    if (request.write && (!existing || changed)) {
      const exported = await this.#startExport(vault, { vectors: false, passphrase: request.passphrase }, signal, onProgress);
      const handle = await folder.getFileHandle(fileName, { create: true });
      const hashed = await digestingStream(exported.stream);
      const counted = countingStream(hashed.stream);
      // A writable writes to a swap file and replaces the old file only on close: a failure or a
      // cancel leaves the previous file in place.
      await counted.stream.pipeTo(await handle.createWritable());
      await exported.recordDone();
      await vault.settings.set('vault.syncSeenDigest', hashed.digest());
      result.written = exportSummary(exported, counted.bytes());
    }
    await vault.settings.set('vault.lastSyncAt', this.now());
    return result;
  }
}

function exportSummary(exported: VaultExport, bytes: number): ExportSummary {
  return {
    vaultId: exported.meta.vaultId,
    exportedAt: exported.meta.exportedAt,
    encrypted: exported.encrypted,
    vectors: exported.vectors,
    counts: exported.counts,
    records: exported.records,
    bytes,
  };
}

export function createVaultFileService(opening: Promise<Vault>, options: VaultFileServiceOptions): VaultFileService {
  return new VaultFileServiceImpl(opening, options);
}

/** Whether an error says another operation holds the vault file (a background sync can just skip). */
export function isBusyError(error: unknown): boolean {
  return isVaultError(error) && (error.detail as { busy?: unknown } | undefined)?.busy === true;
}
