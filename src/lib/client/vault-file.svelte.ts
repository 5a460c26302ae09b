import * as Comlink from 'comlink';
import type {
  ChangeCheck,
  ExportRequest,
  ExportResult,
  ImportMode,
  ImportReport,
  SyncRequest,
  SyncResult,
  VaultFileProgress,
  VaultFileProgressFn,
  VaultFileStatus,
} from '../core/api/vault-file';
import { isCancellation } from '../core/api/vault-file';
import { isVaultError, vaultError } from '../core/errors';
import { newId } from '../core/ids';
import { ProgressTracker } from '../core/jobs/progress';
import { errors } from './errors.svelte';
import { vaultViews } from '../store/views/vault-views';
import { vaultWorker } from './vault-worker';
import { downloadBlob } from './vault-file-download';
import { SyncFolder } from './vault-file-sync.svelte';

export type VaultFileTask = 'export' | 'restore' | 'merge' | 'sync';

export interface VaultFileBusy {
  task: VaultFileTask;
  opId: string;
  progress: VaultFileProgress | null;
  /** Time left in the current phase, when it can be estimated. */
  etaMs: number | null;
}

export interface VaultFileOutcome {
  task: VaultFileTask;
  ok: boolean;
  text: string;
  at: number;
}

/** Export and import run for as long as the vault is large; the timeout only catches a hung worker. */
const HEAVY_CALL_MS = 60 * 60_000;
const STATUS_CALL_MS = 5 * 60_000;

/** Another tab (or this one) is already exporting or importing: a background sync just skips. */
const busyElsewhere = (error: unknown) => isVaultError(error) && (error.detail as { busy?: unknown } | undefined)?.busy === true;

const count = (n: number, what: string) => `${n.toLocaleString('en')} ${what}${n === 1 ? '' : 's'}`;

export function describeImport(report: ImportReport): string {
  const notes = (report.notes ?? []).map((n) => ` ${n}`).join('');
  if (report.mode === 'restore') {
    const r = report.restored;
    return `Restored ${count(r.conversations, 'conversation')}, ${count(r.messages, 'message')} and ${count(r.notes, 'note')} from the file.${notes}`;
  }
  if (report.unchanged) return `Merged: the file held nothing new.${notes}`;
  const c = report.changes;
  return `Merged: ${c.added} added, ${c.updated} updated, ${c.deleted} deleted, ${c.history} history entries added (earlier note versions included).${notes}`;
}

/**
 * The vault file as the page sees it: status (what the vault holds, last export, reminder), export,
 * restore, merge and the sync folder, all run in the vault-file worker with progress and cancel.
 * Every failure goes to the error center; a cancel is reported as an outcome, not an error.
 */
class VaultFileClient {
  status = $state<VaultFileStatus | null>(null);
  busy = $state<VaultFileBusy | null>(null);
  outcome = $state<VaultFileOutcome | null>(null);
  fingerprint = $state<string | null>(null);
  /** Shown once after the first import (`offerBackupSetup`). */
  backupOffer = $state(false);
  readonly folder = new SyncFolder((handle, request, background) => this.runSync(handle, request, background));
  private started = false;

  private get rpc() {
    return vaultWorker();
  }

  /** At app start: the reminder (cheaply), and the sync folder's newer file if one is set up. */
  async startup(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.refresh('if-due');
    await this.folder.startup();
  }

  async refresh(check: ChangeCheck = 'always'): Promise<void> {
    try {
      const next: VaultFileStatus = await this.rpc.call('status', [check], STATUS_CALL_MS);
      // An `if-due` check that counted nothing (a snooze) keeps the counts already on screen.
      this.status = next.counts === null && this.status?.counts ? { ...next, counts: this.status.counts } : next;
    } catch (error) {
      errors.report(error, 'reading the vault status');
    }
  }

  private async run<T>(
    task: VaultFileTask,
    context: string,
    work: (opId: string, onProgress: VaultFileProgressFn) => Promise<T>,
    background = false,
  ): Promise<T | undefined> {
    if (this.busy) {
      if (background) return undefined;
      errors.report(vaultError('vault/failed', 'Another export or import is running; wait for it or cancel it.'), context);
      return undefined;
    }
    const opId = newId('vf');
    this.busy = { task, opId, progress: null, etaMs: null };
    let tracker = new ProgressTracker();
    const onProgress = Comlink.proxy((progress: VaultFileProgress) => {
      if (this.busy?.opId !== opId) return;
      if (this.busy.progress?.phase !== progress.phase) tracker = new ProgressTracker();
      tracker.record(Date.now(), progress.done);
      this.busy = { ...this.busy, progress, etaMs: tracker.estimate(progress.total).etaMs };
    });
    try {
      return await work(opId, onProgress);
    } catch (error) {
      if (isCancellation(error)) this.outcome = { task, ok: false, text: 'Cancelled: nothing was changed.', at: Date.now() };
      else if (background && busyElsewhere(error))
        this.outcome = { task, ok: false, text: 'Sync skipped: the vault file is busy in another tab.', at: Date.now() };
      else errors.report(error, context);
      return undefined;
    } finally {
      this.busy = null;
      void this.refresh();
    }
  }

  /** Exports and hands the file to the browser as a download. */
  async exportFile(request: ExportRequest): Promise<ExportResult | undefined> {
    const result = await this.run('export', 'exporting the vault', (opId, onProgress) =>
      this.rpc.call('exportFile', [opId, request, onProgress], HEAVY_CALL_MS),
    );
    if (!result) return undefined;
    downloadBlob(result.file, result.fileName);
    const size = `${(result.bytes / 2 ** 20).toFixed(result.bytes < 2 ** 20 ? 2 : 1)} MB`;
    const text = `Exported ${count(result.records, 'record')} (${size}${result.encrypted ? ', encrypted' : ''}) as ${result.fileName}.`;
    this.outcome = { task: 'export', ok: true, text, at: Date.now() };
    return result;
  }

  async importFile(file: Blob, mode: ImportMode, passphrase?: string): Promise<ImportReport | undefined> {
    const report = await this.run(mode, mode === 'restore' ? 'restoring the vault file' : 'merging the vault file', (opId, onProgress) =>
      this.rpc.call('importFile', [opId, { file, mode, passphrase }, onProgress], HEAVY_CALL_MS),
    );
    if (report) this.outcome = { task: mode, ok: true, text: describeImport(report), at: Date.now() };
    return report;
  }

  private runSync(folder: FileSystemDirectoryHandle, request: SyncRequest, background: boolean): Promise<SyncResult | undefined> {
    return this.run(
      'sync',
      'syncing with the folder',
      (opId, onProgress) => this.rpc.call('syncFolder', [opId, folder, request, onProgress], HEAVY_CALL_MS),
      background,
    );
  }

  async cancel(): Promise<void> {
    const busy = this.busy;
    if (busy) await this.rpc.call('cancel', [busy.opId]).catch((error: unknown) => errors.report(error, 'cancelling'));
  }

  async computeFingerprint(): Promise<void> {
    try {
      this.fingerprint = await this.rpc.call('fingerprint', [], HEAVY_CALL_MS);
    } catch (error) {
      errors.report(error, 'computing the vault fingerprint');
    }
  }

  async snoozeReminder(): Promise<void> {
    await this.rpc.call('snoozeReminder', []).catch((error: unknown) => errors.report(error, 'hiding the reminder'));
    await this.refresh('if-due');
  }

  async setReminderDays(days: number): Promise<void> {
    if (!Number.isInteger(days) || days < 1 || days > 365) return;
    await this.rpc.call('setPreference', ['vault.reminderDays', days]);
    await this.refresh();
  }

  async dismissBackupOffer(): Promise<void> {
    this.backupOffer = false;
    await this.rpc.call('setPreference', ['vault.backupOffered', true]);
  }
}

export const vaultFile = new VaultFileClient();

/**
 * For the import screen (and anything else that brings data in): after the first import, offer
 * once to set up backups (a sync folder, or export reminders). Returns whether the offer is shown.
 */
export async function offerBackupSetup(): Promise<boolean> {
  if (await (await vaultViews()).setting('vault.backupOffered')) return false;
  vaultFile.backupOffer = true;
  return true;
}
