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
import type { VaultEntry } from '../core/api/vaults';
import { touchVault } from './vault-actions';
import { vaultSession } from './vault-session.svelte';

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
  /** The vault the last import went into (this tab's vault unless the person chose another). */
  into = $state<VaultEntry | null>(null);
  private readonly rpc = importWorker();
  /** The worker of the vault the running import writes into (for cancel). */
  private running = this.rpc;
  private recentSubscription: Subscription | null = null;

  constructor() {
    // Switching reloads the page, which would cut an import short: it waits for the import.
    vaultSession.onBusy(() => (this.phase === 'running' ? `An import into ${this.into?.name ?? 'this vault'} is running.` : null));
  }

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

  private async afterStored(): Promise<void> {
    await storageStatus.afterImport().catch((error: unknown) => errors.report(error, 'asking for persistent storage'));
    // The first import is when there is something to lose: offer a backup or sync folder once.
    await offerBackupSetup().catch((error: unknown) => errors.report(error, 'offering a backup'));
  }

  /** Imports pasted text as a file named "pasted text". */
  importText(text: string, into?: VaultEntry): Promise<ImportReport | null> {
    return this.importFiles([new File([text], 'pasted text', { type: 'text/plain' })], into);
  }

  /** Imports into `into` (default this tab's vault) through that vault's own import worker. */
  async importFiles(files: readonly File[], into: VaultEntry | null = vaultSession.current): Promise<ImportReport | null> {
    if (this.phase === 'running' || files.length === 0 || !into) return null;
    const rpc = into.dbName === vaultSession.current?.dbName ? this.rpc : importWorker(into.dbName);
    this.running = rpc;
    this.into = into;
    this.phase = 'running';
    this.report = null;
    this.cancelling = false;
    this.progress = null;
    const total = files.reduce((n, f) => n + f.size, 0);
    try {
      const inputs = files.map((f) => ({ name: f.name, blob: f as Blob }));
      const report = await rpc.call(
        'importFiles',
        [inputs, Comlink.proxy((progress: ImportProgressEvent) => (this.progress = progress))],
        importTimeoutMs(total),
      );
      this.report = report;
      touchVault(into.id).catch(() => undefined);
      for (const file of report.files) {
        for (const error of file.errors) if (error.code !== 'import/cancelled') errors.report(error, `importing ${file.path}`);
      }
      if (report.totals.conversations.stored + report.totals.resources.stored > 0) {
        // Not awaited: these go through the vault worker, which may only be starting now (it starts
        // after the first screen, docs/BUNDLE.md); the next import must not wait for them (while
        // `phase` is 'running' a new import is refused).
        void this.afterStored();
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
    await this.running.call('cancel', []);
  }
}

let instance: ImportController | null = null;

export function importer(): ImportController {
  instance ??= new ImportController();
  return instance;
}
