import { dev } from '$app/environment';

/**
 * Registers the service worker and surfaces a new version as a prompt instead of a silent
 * takeover: the new worker waits until the person chooses to reload.
 */
class ServiceWorkerUpdate {
  available = $state(false);
  registered = $state(false);
  private waiting: ServiceWorker | null = null;

  async register(): Promise<void> {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    const registration = await navigator.serviceWorker.register('/service-worker.js', { type: dev ? 'module' : 'classic' });
    this.registered = true;
    const offer = (worker: ServiceWorker | null) => {
      // Only an update (a controller already exists) is offered; a first install just activates.
      if (worker && navigator.serviceWorker.controller) {
        this.waiting = worker;
        this.available = true;
      }
    };
    offer(registration.waiting);
    registration.addEventListener('updatefound', () => {
      const installing = registration.installing;
      installing?.addEventListener('statechange', () => {
        if (installing.state === 'installed') offer(installing);
      });
    });
    let reloading = false;
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (reloading || !this.waiting) return;
      reloading = true;
      location.reload();
    });
    // Look for a new version when the app regains focus, at most hourly.
    let lastCheck = Date.now();
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && Date.now() - lastCheck > 3_600_000) {
        lastCheck = Date.now();
        void registration.update().catch(() => undefined);
      }
    });
  }

  /** Activates the waiting version; the page reloads when it takes control. */
  apply(): void {
    this.waiting?.postMessage({ type: 'SKIP_WAITING' });
  }

  dismiss(): void {
    this.available = false;
  }
}

export const swUpdate = new ServiceWorkerUpdate();
