import type { SyncRequest, SyncResult } from '../core/api/vault-file';
import { errors } from './errors.svelte';
import { vaultViews } from '../store/views/vault-views';
import { vaultWorker } from './vault-worker';
import { folderPermission, folderSyncSupported, isFolderHandle, pickFolder } from './vault-file-folder';

type RunSync = (folder: FileSystemDirectoryHandle, request: SyncRequest, background: boolean) => Promise<SyncResult | undefined>;

/**
 * The sync folder (File System Access API; Chromium-based browsers): the vault file is written into
 * a folder the person chose (one a cloud drive syncs, say) on demand or on a schedule, and a newer
 * file found there is merged at start. The folder handle is kept in IndexedDB (settings); the
 * passphrase of an encrypted sync file is kept in memory only, so after a reload it must be typed
 * again before the folder syncs.
 */
export class SyncFolder {
  readonly supported = folderSyncSupported();
  name = $state<string | null>(null);
  permission = $state<PermissionState | null>(null);
  intervalMinutes = $state<number | null>(null);
  encrypted = $state(false);
  lastSyncAt = $state<number | null>(null);
  lastNote = $state<string | null>(null);
  private handle: FileSystemDirectoryHandle | null = null;
  private passphrase: string | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Syncs started in this session: only the latest one's outcome is shown. */
  private runs = 0;
  /**
   * The sync in flight. The vault-file client refuses a second task while one runs, so a sync the
   * person asks for waits for it (a click in the first seconds met the start-up sync and got an
   * error, and its outcome never came); one the app starts (start-up, schedule) just skips.
   */
  private inFlight: Promise<unknown> | null = null;

  constructor(private readonly runSync: RunSync) {}

  /** Encrypted sync without the passphrase typed in this session. */
  get locked(): boolean {
    return this.encrypted && this.passphrase === null;
  }

  async load(): Promise<void> {
    const views = await vaultViews();
    const stored = await views.setting('vault.syncFolder');
    this.handle = isFolderHandle(stored) ? stored : null;
    this.name = this.handle?.name ?? null;
    this.intervalMinutes = await views.setting('vault.syncIntervalMinutes');
    this.encrypted = await views.setting('vault.syncEncrypted');
    this.lastSyncAt = await views.setting('vault.lastSyncAt');
    this.permission = this.handle && this.supported ? await folderPermission(this.handle, false) : null;
  }

  async startup(): Promise<void> {
    if (!this.supported) return;
    await this.load();
    // The start-up sync runs after the first screen (up to seconds later): when the person has
    // already synced by then, it has nothing to add, and its note would replace theirs.
    if (this.handle && this.permission === 'granted' && !this.locked && this.runs === 0)
      await this.syncNow(this.intervalMinutes !== null, true);
    this.schedule();
  }

  /**
   * Asks for a folder (from a click), remembers it, and syncs with it at once. `passphrase`: the
   * (confirmed, strong enough) passphrase of the sync file, or null when the person turned
   * encryption off; a new sync folder is encrypted unless they did.
   */
  async choose(passphrase: string | null): Promise<void> {
    const handle = await pickFolder();
    if (!handle) return;
    await this.setEncryption(passphrase);
    await vaultWorker().call('setPreference', ['vault.syncFolder', handle]);
    await vaultWorker().call('setPreference', ['vault.syncSeenDigest', null]);
    this.handle = handle;
    this.name = handle.name;
    this.permission = await folderPermission(handle, true);
    if (this.permission === 'granted' && !this.locked) await this.syncNow(true);
    this.schedule();
  }

  /** After a reload the browser asks again before the app may use the folder (needs a click). */
  async reconnect(): Promise<void> {
    if (!this.handle) return;
    this.permission = await folderPermission(this.handle, true);
    if (this.permission === 'granted' && !this.locked) await this.syncNow(true);
  }

  async forget(): Promise<void> {
    await vaultWorker().call('setPreference', ['vault.syncFolder', null]);
    this.handle = null;
    this.name = null;
    this.permission = null;
    this.schedule();
  }

  /** Encrypted sync files from now on (passphrase in memory only), or plain ones (passphrase null). */
  async setEncryption(passphrase: string | null): Promise<void> {
    this.encrypted = passphrase !== null;
    this.passphrase = passphrase;
    await vaultWorker().call('setPreference', ['vault.syncEncrypted', this.encrypted]);
  }

  /** Types the passphrase of an encrypted sync folder for this session. */
  unlock(passphrase: string): void {
    this.passphrase = passphrase;
  }

  async setInterval(minutes: number | null): Promise<void> {
    this.intervalMinutes = minutes;
    await vaultWorker().call('setPreference', ['vault.syncIntervalMinutes', minutes]);
    this.schedule();
  }

  /** `background`: started by the app (start, schedule), not a click: skipped quietly when busy. */
  async syncNow(write = true, background = false): Promise<void> {
    while (this.inFlight) {
      if (background) return;
      await this.inFlight.catch(() => undefined);
    }
    if (!this.handle || this.permission !== 'granted' || this.locked) return;
    const run = ++this.runs;
    const pending = this.runSync(this.handle, { write, passphrase: this.passphrase ?? undefined }, background);
    this.inFlight = pending;
    let result: SyncResult | undefined;
    try {
      result = await pending;
    } finally {
      if (this.inFlight === pending) this.inFlight = null;
    }
    if (!result) return;
    this.lastSyncAt = Date.now();
    if (run !== this.runs) return; // a later sync's outcome is the one to show
    const merged = result.merged ? (result.merged.unchanged ? 'merged a file that held nothing new' : 'merged a newer file') : null;
    const written = result.written ? 'wrote the vault file' : null;
    this.lastNote = [merged, written].filter(Boolean).join(' and ') || result.note;
  }

  private schedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!this.handle || !this.intervalMinutes) return;
    this.timer = setInterval(() => {
      this.syncNow(true, true).catch((error: unknown) => errors.report(error, 'syncing with the folder'));
    }, this.intervalMinutes * 60_000);
  }
}
