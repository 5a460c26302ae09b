/**
 * The page's JavaScript heap in MB (`performance.memory.usedJSHeapSize`, Chromium only; precise
 * because the runner starts Chromium with `--enable-precise-memory-info`), or null elsewhere. Shared
 * by the `*.browser.ts` bench modules.
 */
export function heapMb(): number | null {
  const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  return memory ? memory.usedJSHeapSize / 2 ** 20 : null;
}
