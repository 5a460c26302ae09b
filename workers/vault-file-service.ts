import type {
  ExportRequest,
  ExportResult,
  ExportSummary,
  ImportReport,
  ImportRequest,
  SyncRequest,
  SyncResult,
  VaultFileApi,
  VaultFileProgressFn,
} from '../src/lib/core/api/vault-file';
import { SYNC_FILE_NAME } from '../src/lib/core/api/vault-file';
import { fail } from '../src/lib/core/errors';
import type { DeriveKeyFn, KdfChoice } from '../src/lib/core/vaultfile/kdf';
import { readVault } from '../src/lib/core/vaultfile/reader';
import type { Vault } from '../src/lib/store/vault';
import { exportVault, type VaultExport } from '../src/lib/store/vaultfile-export';
import { mergeVaultFile } from '../src/lib/store/vaultfile-merge';
import { restoreVault } from '../src/lib/store/vaultfile-restore';
import { changedSinceMark, SNOOZE_MS, vaultFileStatus, vaultFingerprint } from '../src/lib/store/vaultfile-status';
import { vaultCounts } from '../src/lib/store/vaultfile-tables';
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
}

export type VaultFileService = Omit<VaultFileApi, 'ready' | 'ping'>;

const LOCK_NAME = 'engram-vault-file';

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

export function createVaultFileService(opening: Promise<Vault>, options: VaultFileServiceOptions): VaultFileService {
  const now = options.now ?? Date.now;
  const running = new Map<string, AbortController>();

  async function exclusive<T>(opId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (running.size > 0) fail('vault/failed', 'Another export or import of the vault file is running; wait for it or cancel it.');
    const controller = new AbortController();
    running.set(opId, controller);
    try {
      if (!options.locks) return await work(controller.signal);
      return await options.locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) => {
        if (!lock) fail('vault/failed', 'Another tab is exporting or importing the vault file; try again when it has finished.');
        return work(controller.signal);
      });
    } finally {
      running.delete(opId);
    }
  }

  async function startExport(
    vault: Vault,
    request: ExportRequest,
    signal: AbortSignal,
    onProgress?: VaultFileProgressFn,
  ): Promise<VaultExport> {
    const encryption =
      request.passphrase !== undefined
        ? { passphrase: request.passphrase, kdf: request.kdf ?? options.kdf, deriveKey: options.deriveKey }
        : undefined;
    return exportVault(vault, { vectors: request.vectors, appVersion: options.appVersion, encryption, signal, onProgress, now });
  }

  function summary(exported: VaultExport, bytes: number): ExportSummary {
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

  async function importBlob(
    vault: Vault,
    request: ImportRequest,
    signal: AbortSignal,
    onProgress?: VaultFileProgressFn,
  ): Promise<ImportReport> {
    const common = { passphrase: request.passphrase, deriveKey: options.deriveKey, signal, onProgress, now };
    const stream = request.file.stream() as ReadableStream<Uint8Array>;
    return request.mode === 'restore' ? restoreVault(vault, stream, common) : mergeVaultFile(vault, stream, common);
  }

  /** The manifest's `exportedAt` of a file (reads only up to the manifest). */
  async function exportedAtOf(file: Blob, passphrase: string | undefined): Promise<number> {
    const events = readVault(file.stream() as ReadableStream<Uint8Array>, { passphrase, deriveKey: options.deriveKey });
    try {
      const first = await events.next();
      if (first.done || first.value.kind !== 'manifest') return fail('vault/corrupt', 'The sync folder file has no manifest.');
      return first.value.manifest.exportedAt;
    } finally {
      await events.return(undefined);
    }
  }

  async function sync(
    vault: Vault,
    folder: FileSystemDirectoryHandle,
    request: SyncRequest,
    signal: AbortSignal,
    onProgress?: VaultFileProgressFn,
  ) {
    const result: SyncResult = { merged: null, written: null, note: null };
    const existing = await folder.getFileHandle(SYNC_FILE_NAME).then(
      (handle) => handle.getFile(),
      () => null,
    );
    if (existing) {
      const exportedAt = await exportedAtOf(existing, request.passphrase);
      const seen = await vault.settings.get('vault.syncSeenExportedAt');
      if (seen === null || exportedAt > seen) {
        const stream = existing.stream() as ReadableStream<Uint8Array>;
        result.merged = await mergeVaultFile(vault, stream, {
          passphrase: request.passphrase,
          deriveKey: options.deriveKey,
          signal,
          onProgress,
          now,
        });
        await vault.settings.set('vault.syncSeenExportedAt', exportedAt);
      } else {
        result.note = 'The folder holds no file newer than the last one merged or written here.';
      }
    } else {
      result.note = 'The folder holds no vault file yet.';
    }
    const changed = await changedSinceMark(vault.db, await vault.settings.get('vault.exportMark'), await vaultCounts(vault.db));
    if (request.write && (!existing || changed)) {
      const exported = await startExport(vault, { vectors: false, passphrase: request.passphrase }, signal, onProgress);
      const handle = await folder.getFileHandle(SYNC_FILE_NAME, { create: true });
      const counted = countingStream(exported.stream);
      // A writable writes to a swap file and replaces the old file only on close: a failure or a
      // cancel leaves the previous file in place.
      await counted.stream.pipeTo(await handle.createWritable());
      await exported.recordDone();
      await vault.settings.set('vault.syncSeenExportedAt', exported.meta.exportedAt);
      result.written = summary(exported, counted.bytes());
    }
    await vault.settings.set('vault.lastSyncAt', now());
    return result;
  }

  return {
    async status(check) {
      return vaultFileStatus(await opening, check, now());
    },
    async snoozeReminder() {
      await (await opening).settings.set('vault.reminderSnoozedUntil', now() + SNOOZE_MS);
    },
    async fingerprint() {
      return vaultFingerprint(await opening);
    },
    async exportFile(opId, request, onProgress): Promise<ExportResult> {
      const vault = await opening;
      return exclusive(opId, async (signal) => {
        const exported = await startExport(vault, request, signal, safeProgress(onProgress));
        const { blob, bytes } = await streamToBlob(exported.stream);
        await exported.recordDone();
        return { ...summary(exported, bytes), file: blob, fileName: exportFileName(exported.meta.exportedAt) };
      });
    },
    async importFile(opId, request, onProgress) {
      const vault = await opening;
      return exclusive(opId, (signal) => importBlob(vault, request, signal, safeProgress(onProgress)));
    },
    async syncFolder(opId, folder, request, onProgress) {
      const vault = await opening;
      return exclusive(opId, (signal) => sync(vault, folder, request, signal, safeProgress(onProgress)));
    },
    async cancel(opId) {
      const controller = running.get(opId);
      controller?.abort();
      return controller !== undefined;
    },
  };
}
