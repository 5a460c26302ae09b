import type { BenchModule, FigureSamples } from './harness';
import { timeStoreRoundTrip, type StoreTiming } from './store-work';

const ROWS = 100_000;

function figures(env: 'node' | 'chromium', timings: StoreTiming[]): FigureSamples[] {
  const meta = { rows: ROWS, batch: 1_000, backend: env === 'node' ? 'fake-indexeddb' : 'IndexedDB' };
  return [
    { name: `store.bulkput_100k.${env}.rows_per_s`, unit: 'rows/s', values: timings.map((t) => (t.rows * 1000) / t.putMs), meta },
    { name: `store.read_100k.${env}.rows_per_s`, unit: 'rows/s', values: timings.map((t) => (t.rows * 1000) / t.readMs), meta },
  ];
}

export const bench: BenchModule = {
  name: 'store',
  async run(ctx) {
    const out: FigureSamples[] = [];
    if (ctx.wants('store.') && (ctx.wants('store.bulkput_100k.node') || ctx.wants('store.read_100k.node'))) {
      const timings: StoreTiming[] = [];
      for (let i = 0; i < ctx.runs; i++) {
        timings.push(await timeStoreRoundTrip(ROWS, () => performance.now()));
        ctx.log(`store node run ${i + 1}/${ctx.runs}: put ${timings[i]!.putMs.toFixed(0)} ms, read ${timings[i]!.readMs.toFixed(0)} ms`);
      }
      out.push(...figures('node', timings));
    }
    if (ctx.wants('store.bulkput_100k.chromium') || ctx.wants('store.read_100k.chromium')) {
      const browser = await ctx.browser();
      const timings: StoreTiming[] = [];
      for (let i = 0; i < ctx.runs; i++) {
        timings.push(await browser.run<StoreTiming>('storeRoundTrip', { rows: ROWS }));
        ctx.log(
          `store chromium run ${i + 1}/${ctx.runs}: put ${timings[i]!.putMs.toFixed(0)} ms, read ${timings[i]!.readMs.toFixed(0)} ms`,
        );
      }
      out.push(...figures('chromium', timings));
    }
    return out;
  },
};
