import { test, type Page } from '@playwright/test';

/**
 * The one wait for the service worker in e2e: every spec that goes offline waits here until the
 * worker controls the page. Every step is bounded, so a page the worker will never control fails
 * with a message saying what the worker was doing, instead of hanging until the test times out.
 *
 * A page is controlled when it was loaded through an active worker, or when the worker claims it
 * on activation (src/service-worker.ts calls `clients.claim()`). A page loaded before the worker
 * activated and never claimed stays uncontrolled for its whole life: it is reloaded once, so the
 * navigation goes through the active worker.
 */
export interface ServiceWorkerWait {
  /** How long the worker may take to install (precache) and activate. */
  activateMs?: number;
  /** How long an active worker may take to claim the page. */
  claimMs?: number;
}

interface Probe {
  controlled: boolean;
  activated: boolean;
  registration: { installing: string | null; waiting: string | null; active: string | null } | null;
}

/** Runs in the page: waits (bounded) for an active worker, then for it to control this page. */
async function probe({ activateMs, claimMs }: Required<ServiceWorkerWait>): Promise<Probe> {
  const container = navigator.serviceWorker;
  const within = (promise: Promise<unknown>, ms: number) =>
    Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
  // Listen before looking, so a claim between the two cannot be missed.
  const claimed = new Promise<void>((resolve) => container.addEventListener('controllerchange', () => resolve(), { once: true }));
  const activated = await within(container.ready, activateMs);
  if (activated && !container.controller) await within(claimed, claimMs);
  const registration = await container.getRegistration();
  return {
    controlled: container.controller !== null,
    activated,
    registration: registration
      ? {
          installing: registration.installing?.state ?? null,
          waiting: registration.waiting?.state ?? null,
          active: registration.active?.state ?? null,
        }
      : null,
  };
}

function describe(state: Probe): string {
  if (!state.registration) return 'the page has no service worker registration (was register() called, or did it fail?)';
  const { installing, waiting, active } = state.registration;
  return `registration: installing ${installing ?? 'none'}, waiting ${waiting ?? 'none'}, active ${active ?? 'none'}; controlled: ${state.controlled}`;
}

export async function waitForServiceWorkerControl(page: Page, options: ServiceWorkerWait = {}): Promise<void> {
  const limits = { activateMs: options.activateMs ?? 30_000, claimMs: options.claimMs ?? 5_000 };
  const first = await page.evaluate(probe, limits);
  if (first.controlled) return;
  if (!first.activated) {
    throw new Error(
      `No service worker became active for ${page.url()} within ${limits.activateMs} ms (${describe(first)}). ` +
        'An install that fails (a precache fetch that is not ok) leaves no active worker.',
    );
  }
  // Active, but this page was loaded before the worker activated and was not claimed.
  test.info().annotations.push({
    type: 'service-worker',
    description: `reloaded ${page.url()} once: active but not controlling (${describe(first)})`,
  });
  await page.reload();
  const second = await page.evaluate(probe, limits);
  if (second.controlled) return;
  throw new Error(
    `The active service worker does not control ${page.url()}, not even after a reload (${describe(second)}). ` +
      'Is the page outside the worker scope, or was the reload served around the worker?',
  );
}
