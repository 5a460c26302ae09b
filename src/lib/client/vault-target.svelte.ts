import type { VaultEntry } from '../core/api/vaults';
import { vaultSession } from './vault-session.svelte';

/**
 * "Into which vault?" for the Import and Capture pages: asked only when there is more than one
 * vault, the last used one preselected (switching to a vault, importing or capturing into it makes
 * it the last used).
 */
export class VaultTarget {
  /** The person's choice on this page; null: the preselected one. */
  chosenId = $state<string | null>(null);

  get choices(): VaultEntry[] {
    return vaultSession.vaults;
  }

  /** Whether the page asks (more than one vault). */
  get asks(): boolean {
    return this.choices.length > 1;
  }

  get preselected(): VaultEntry | null {
    if (this.choices.length === 0) return vaultSession.current;
    return this.choices.reduce((best, v) => (v.lastUsedAt > best.lastUsedAt ? v : best));
  }

  get chosen(): VaultEntry | null {
    return this.choices.find((v) => v.id === this.chosenId) ?? this.preselected;
  }
}
