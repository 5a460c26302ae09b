import { timeStoreRoundTrip } from './store-work';

/** Functions the benchmark runner calls inside Chromium (see tests/bench/browser/main.ts). */
export const functions = {
  storeRoundTrip: (args: unknown) => timeStoreRoundTrip((args as { rows: number }).rows, () => performance.now()),
};
