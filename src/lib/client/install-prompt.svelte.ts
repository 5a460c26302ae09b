/**
 * The install offer (src/lib/core/install/offer.ts decides when). The browser's
 * `beforeinstallprompt` event is held back (preventDefault) and replayed when the person chooses
 * "Install" in the app's own banner, after a useful moment. "Not now" is remembered on this device
 * (localStorage) for 30 days.
 */
import { shouldOfferInstall, type InstallMoment } from '../core/install/offer';

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

const DISMISSED_KEY = 'engram-install-dismissed-at';

export class InstallPrompt {
  private deferred = $state<BeforeInstallPromptEvent | null>(null);
  private moments = $state<InstallMoment[]>([]);
  private dismissedAt = $state<number | null>(null);
  installed = $state(false);

  get offered(): boolean {
    return shouldOfferInstall({
      installable: this.deferred !== null,
      installed: this.installed,
      moments: this.moments,
      dismissedAt: this.dismissedAt,
      now: Date.now(),
    });
  }

  /** Listens for the browser's install events; returns the function that stops listening. */
  listen(target: Window): () => void {
    try {
      const stored = target.localStorage.getItem(DISMISSED_KEY);
      this.dismissedAt = stored === null ? null : Number(stored);
    } catch {
      this.dismissedAt = null;
    }
    this.installed = target.matchMedia?.('(display-mode: standalone)').matches ?? false;
    const onprompt = (event: Event) => {
      event.preventDefault(); // no browser mini-bar on a first look; the app offers it at a better moment
      this.deferred = event as BeforeInstallPromptEvent;
    };
    const oninstalled = () => {
      this.installed = true;
      this.deferred = null;
    };
    target.addEventListener('beforeinstallprompt', onprompt);
    target.addEventListener('appinstalled', oninstalled);
    return () => {
      target.removeEventListener('beforeinstallprompt', onprompt);
      target.removeEventListener('appinstalled', oninstalled);
    };
  }

  /** Something useful just happened (an import stored data, a package was copied). */
  moment(kind: InstallMoment): void {
    if (!this.moments.includes(kind)) this.moments = [...this.moments, kind];
  }

  async install(): Promise<'accepted' | 'dismissed'> {
    const event = this.deferred;
    if (!event) return 'dismissed';
    this.deferred = null; // a prompt event can be used once
    await event.prompt();
    const { outcome } = await event.userChoice;
    if (outcome === 'accepted') this.installed = true;
    else this.snooze();
    return outcome;
  }

  snooze(): void {
    this.dismissedAt = Date.now();
    try {
      localStorage.setItem(DISMISSED_KEY, String(this.dismissedAt));
    } catch {
      // Not remembered across visits.
    }
  }
}

export const installPrompt = new InstallPrompt();
