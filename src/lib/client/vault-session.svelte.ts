import { liveQuery, type Subscription } from 'dexie';
import type { VaultEntry } from '../core/api/vaults';
import { vaultError } from '../core/errors';
import { bindVaultViews, vaultsView } from '../store/views/vault-views';

/** This tab's vault survives a reload (sessionStorage is per tab); a new tab opens the last used one. */
const TAB_KEY = 'engram.vault';

/** What would be cut short by switching now (the switch reloads the page). */
export type BusyCheck = () => string | null;

/**
 * The vault open in this tab. A tab serves exactly one vault: its workers are started for it (their
 * names carry its database), its views read it, and switching reloads the page with the other vault,
 * so no worker, view or piece of state can ever read or write two vaults. Background work of the
 * vault left behind stops with its workers and resumes, from its checkpoints, when that vault is
 * opened again (in this tab or another); a tab that keeps it open keeps running it.
 */
class VaultSession {
  current = $state<VaultEntry | null>(null);
  vaults = $state<VaultEntry[]>([]);
  pickerOpen = $state(false);
  private subscription: Subscription | null = null;
  private readonly busyChecks = new Set<BusyCheck>();

  get ready(): boolean {
    return this.current !== null;
  }

  /** The database of this tab's vault; the workers and views are started for it. */
  get dbName(): string {
    if (!this.current) throw new Error('No vault is open in this tab yet.');
    return this.current.dbName;
  }

  /** Picks this tab's vault (the one it had, else the last used) and binds the views to it. */
  async start(storage: Storage = sessionStorage): Promise<VaultEntry> {
    if (this.current) return this.current;
    const vaults = await vaultsView().list();
    const wanted = storage.getItem(TAB_KEY);
    const entry = vaults.find((v) => v.id === wanted) ?? vaults.reduce((best, v) => (v.lastUsedAt > best.lastUsedAt ? v : best));
    storage.setItem(TAB_KEY, entry.id);
    bindVaultViews(entry.dbName);
    this.vaults = vaults;
    this.current = entry;
    this.subscription = liveQuery(() => vaultsView().list()).subscribe({
      next: (list) => {
        this.vaults = list;
        const mine = list.find((v) => v.id === entry.id);
        if (mine && this.current) this.current = mine;
      },
      error: () => undefined,
    });
    return entry;
  }

  /** Something that a switch would interrupt (an import running, a vault file being written) says so here. */
  onBusy(check: BusyCheck): () => void {
    this.busyChecks.add(check);
    return () => this.busyChecks.delete(check);
  }

  /** Why the tab cannot switch now, or null. */
  busyReason(): string | null {
    for (const check of this.busyChecks) {
      const reason = check();
      if (reason) return reason;
    }
    return null;
  }

  /** Opens `id` in this tab: the page reloads with it (refused while something would be cut short). */
  switchTo(id: string, reload: () => void = () => location.reload(), storage: Storage = sessionStorage): void {
    if (id === this.current?.id) {
      this.pickerOpen = false;
      return;
    }
    if (!this.vaults.some((v) => v.id === id)) throw vaultError('vaults/not-found', 'That vault no longer exists.');
    const busy = this.busyReason();
    if (busy) throw vaultError('vaults/in-use', `${busy} Wait for it to finish (or cancel it), then switch.`);
    storage.setItem(TAB_KEY, id);
    reload();
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = null;
  }
}

export const vaultSession = new VaultSession();
