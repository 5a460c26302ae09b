import { isVaultError, type VaultError } from '../errors';
import type { KdfChoice } from '../vaultfile/kdf';
import type { SectionName } from '../vaultfile/sections';

/**
 * The vault-file worker (workers/vault.worker.ts): export, restore and merge of `.engram` files,
 * and the sync folder. The main thread reaches it through comlink (src/lib/client/vault-file.svelte.ts).
 * Every long call takes an operation id (for `cancel`) and an optional progress callback (a comlink
 * proxy). Failures arrive in the one error shape `{ code, message, detail? }`.
 */

/** Records per table, as a vault file counts them (visible rows only; device settings excluded). */
export type VaultCounts = Record<SectionName, number>;

/**
 * What a complete vault file known to this device covered: the counts and the latest stamp of its
 * records. "Changed since the last export" is derived by comparing the vault against it.
 */
export interface VaultFileMark {
  at: number;
  hlc: string | null;
  counts: VaultCounts;
}

export type VaultFilePhase = 'reading-vault' | 'writing-file' | 'reading-file' | 'comparing' | 'committing';

export interface VaultFileProgress {
  phase: VaultFilePhase;
  done: number;
  total: number;
  unit: 'records';
}

export type VaultFileProgressFn = (progress: VaultFileProgress) => void;

export interface ExportRequest {
  /** Include embedding vectors (bigger file; otherwise they are rebuilt after import). */
  vectors: boolean;
  /** Encrypt with this passphrase; plain when absent. */
  passphrase?: string;
  kdf?: KdfChoice;
}

export interface ExportSummary {
  vaultId: string;
  exportedAt: number;
  encrypted: boolean;
  vectors: boolean;
  counts: VaultCounts;
  records: number;
  bytes: number;
}

export interface ExportResult extends ExportSummary {
  file: Blob;
  fileName: string;
}

export type ImportMode = 'restore' | 'merge';

export interface ImportRequest {
  file: Blob;
  mode: ImportMode;
  passphrase?: string;
}

/** What a file's manifest says about it. */
export interface VaultFileInfo {
  vaultId: string;
  createdAt: number;
  exportedAt: number;
  appVersion: string;
  encrypted: boolean;
  vectorsIncluded: boolean;
  embeddingModelId: string | null;
  counts: Partial<VaultCounts>;
}

export interface RestoreReport {
  mode: 'restore';
  file: VaultFileInfo;
  /** What the vault held before (all of it was replaced). */
  replaced: VaultCounts;
  restored: VaultCounts;
  /** Rows of unfinished imports found in the file and left out. */
  skippedStaged: number;
  /** Records stamped beyond the clock's drift bound, re-stamped to this device's clock. */
  restamped: number;
  /** Lines for the person (what was odd about the file and what was done about it). */
  notes: string[];
}

export interface MergeChanges {
  /** Records new to this vault. */
  added: number;
  /** Records replaced by a later version from the file. */
  updated: number;
  /** Records removed by the file's deletions. */
  deleted: number;
  /** Deletions (tombstones) learned from the file. */
  tombstones: number;
  /** History entries added: the file's own, and the note versions the merge displaced (kept, so it can be undone). */
  history: number;
}

export interface MergeReport {
  mode: 'merge';
  file: VaultFileInfo;
  changes: MergeChanges;
  /** True when the file added nothing (merging it again is a no-op). */
  unchanged: boolean;
  skippedStaged: number;
  /** Records stamped beyond the clock's drift bound, re-stamped to this device's clock. */
  restamped: number;
  /** Lines for the person (what was odd about the file and what was done about it). */
  notes: string[];
}

export type ImportReport = RestoreReport | MergeReport;

export interface ReminderState {
  due: boolean;
  days: number;
  /** Since when the vault has gone without an export (last export, or the first import). */
  since: number | null;
}

/** What the vault holds as a status tells it: the vault file's counts but the vectors (derived, never compared or shown). */
export type StatusCounts = Omit<VaultCounts, 'vectors'>;

export interface VaultFileStatus {
  vaultId: string | null;
  /**
   * Null when not counted: the start-up check (`if-due`) counts only once the reminder's time has
   * come, since a count walks its table (seconds at a 300k-message vault, on the database's one queue).
   */
  counts: StatusCounts | null;
  lastExportAt: number | null;
  /** Null when not worked out (it may scan the records; asked for with `check: 'always'`). */
  changedSinceExport: boolean | null;
  reminder: ReminderState;
}

/** `if-due`: count and work out "changed" only when the reminder's time has come (cheap at every start). */
export type ChangeCheck = 'always' | 'if-due';

export interface SyncRequest {
  /** Needed when the folder's file is encrypted, and to encrypt what is written. */
  passphrase?: string;
  /** Also write the vault to the folder after merging (when it changed or the folder has no file). */
  write: boolean;
}

export interface SyncResult {
  /** The folder's file, when it was newer than anything seen here and merged. */
  merged: MergeReport | null;
  written: ExportSummary | null;
  /** Why nothing was merged (no file, already seen, locked). */
  note: string | null;
}

export const SYNC_FILE_NAME = 'engram-vault.engram';

export interface VaultFileApi {
  ready(): Promise<{ schemaVersion: number }>;
  ping(): Promise<'pong'>;
  status(check: ChangeCheck): Promise<VaultFileStatus>;
  /** Hides the reminder for a day. */
  snoozeReminder(): Promise<void>;
  /** Digest of the person's records (the index left out, see contentFingerprint): equal on two devices that hold the same vault. */
  fingerprint(): Promise<string>;
  exportFile(opId: string, request: ExportRequest, onProgress?: VaultFileProgressFn): Promise<ExportResult>;
  importFile(opId: string, request: ImportRequest, onProgress?: VaultFileProgressFn): Promise<ImportReport>;
  syncFolder(opId: string, folder: FileSystemDirectoryHandle, request: SyncRequest, onProgress?: VaultFileProgressFn): Promise<SyncResult>;
  /** Cancels an operation; true when it was still running. A commit already under way finishes or rolls back whole. */
  cancel(opId: string): Promise<boolean>;
}

/** Whether an error says a vault-file operation was cancelled (nothing was changed). */
export function isCancellation(error: unknown): boolean {
  if (!isVaultError(error)) return false;
  const detail = (error as VaultError).detail as { cancelled?: unknown } | undefined;
  return error.code === 'import/cancelled' || detail?.cancelled === true;
}
