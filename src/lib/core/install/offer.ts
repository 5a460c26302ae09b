/**
 * When to offer "Install Engram Vault". Not on a first look at an empty app: the moment is after
 * the vault has proved useful once (an import stored something, or a context package was copied),
 * when the browser says installing is possible, the app is not already running installed, and the
 * person has not said "not now" recently.
 */
export type InstallMoment = 'import' | 'copy';

export interface InstallOfferState {
  /** The browser fired `beforeinstallprompt` (installing is possible now). */
  installable: boolean;
  /** Running as the installed app (display-mode standalone) or installed during this visit. */
  installed: boolean;
  /** Useful moments seen in this visit. */
  moments: readonly InstallMoment[];
  /** When the person last chose "Not now" (ms), or null. */
  dismissedAt: number | null;
  now: number;
}

/** How long "Not now" holds. */
export const INSTALL_SNOOZE_MS = 30 * 24 * 60 * 60 * 1000;

export function shouldOfferInstall(state: InstallOfferState): boolean {
  if (!state.installable || state.installed || state.moments.length === 0) return false;
  return state.dismissedAt === null || state.now - state.dismissedAt >= INSTALL_SNOOZE_MS;
}
