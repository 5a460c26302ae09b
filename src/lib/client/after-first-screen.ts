/**
 * Runs `task` once the first screen is usable: after `ready` settles (the index worker answered,
 * which is when the Recall screen is interactive) or `capMs` passed, whichever is first, at the
 * browser's next idle moment (at most `idleMs` later). The vault and the pipeline workers start
 * here rather than at mount, so their scripts (about 165 KB gzip) are not fetched and compiled
 * while the Recall screen loads (docs/BUNDLE.md). Anything that needs them earlier starts them on
 * first use (`vaultWorker()`, `pipeline()`).
 */
export interface IdleWindow {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number;
  setTimeout: (callback: () => void, ms: number) => number;
}

export function afterFirstScreen(ready: Promise<unknown>, task: () => void, win: IdleWindow, idleMs = 2_000, capMs = 5_000): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    if (typeof win.requestIdleCallback === 'function') win.requestIdleCallback(task, { timeout: idleMs });
    else win.setTimeout(task, 0);
  };
  ready.then(run, run);
  win.setTimeout(run, capMs);
}
