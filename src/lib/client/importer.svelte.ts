import * as Comlink from 'comlink';
import { liveQuery, type Subscription } from 'dexie';
import type { ImportProgressEvent } from '../core/api/import';
import type { ImportReport } from '../core/import/report';
import type { ImportRecord } from '../core/records';
import { errors } from './errors.svelte';
import { importWorker } from './import-worker';
import { storageStatus } from './storage.svelte';
import { offerBackupSetup } from './vault-file.svelte';
import { vaultViews } from '../store/views/vault-views';

/** A call may take as long as reading the files at a slow 0.5 MB/s, plus a minute. */
function importTimeoutMs(bytes: number): number {
  return 60_000 + (bytes / 500_000) * 1000;
}

/** The Import screen's state: one import at a time, its progress, its report, and recent imports. */
export class ImportController {
  phase = $state<'idle' | 'running' | 'done'>('idle');
  progress = $state<ImportProgressEvent | null>(null);
  report = $state<ImportReport | null>(null);
  cancelling = $state(false);
  recent = $state<ImportRecord[]>([]);
  private readonly rpc = importWorker();
  private recentSubscription: Subscription | null = null;

  /** Rolls back imports a closed tab interrupted, and starts the live list of recent imports. */
  start(): void {
    void this.rpc.call('ready', []).catch((error: unknown) => errors.report(error, 'checking unfinished imports'));
    if (this.recentSubscription) return;
    void vaultViews().then((views) => {
      this.recentSubscription = liveQuery(() => views.recentImports(10)).subscribe({
        next: (rows) => (this.recent = rows),
        error: (error: unknown) => errors.report(error, 'listing imports'),
      });
    });
  }

  stop(): void {
    this.recentSubscription?.unsubscribe();
    this.recentSubscription = null;
  }

  /** Imports pasted text as a file named "pasted text". */
  importText(text: string): Promise<ImportReport | null> {
    return this.importFiles([new File([text], 'pasted text', { type: 'text/plain' })]);
  }

  async importFiles(files: readonly File[]): Promise<ImportReport | null> {
    if (this.phase === 'running' || files.length === 0) return null;
    this.phase = 'running';
    this.report = null;
    this.cancelling = false;
    this.progress = null;
    const total = files.reduce((n, f) => n + f.size, 0);
    try {
      const inputs = files.map((f) => ({ name: f.name, blob: f as Blob }));
      const report = await this.rpc.call(
        'importFiles',
        [inputs, Comlink.proxy((progress: ImportProgressEvent) => (this.progress = progress))],
        importTimeoutMs(total),
      );
      this.report = report;
      for (const file of report.files) {
        for (const error of file.errors) if (error.code !== 'import/cancelled') errors.report(error, `importing ${file.path}`);
      }
      if (report.totals.conversations.stored + report.totals.resources.stored > 0) {
        await storageStatus.afterImport().catch((error: unknown) => errors.report(error, 'asking for persistent storage'));
        // The first import is when there is something to lose: offer a backup or sync folder once.
        await offerBackupSetup().catch((error: unknown) => errors.report(error, 'offering a backup'));
      }
      return report;
    } catch (error) {
      errors.report(error, 'importing');
      return null;
    } finally {
      this.phase = this.report ? 'done' : 'idle';
      this.cancelling = false;
    }
  }

  async cancel(): Promise<void> {
    if (this.phase !== 'running') return;
    this.cancelling = true;
    await this.rpc.call('cancel', []);
  }
}

let instance: ImportController | null = null;

export function importer(): ImportController {
  instance ??= new ImportController();
  return instance;
}
