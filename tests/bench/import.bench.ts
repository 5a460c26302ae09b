import type { BenchModule, FigureSamples } from './harness';
import { generatedExport, IMPORT_EXPORTS, timeImport, type ImportExportName, type ImportTiming } from './import-work';

const heapMb = () => process.memoryUsage().heapUsed / 2 ** 20;

/** Runs of the 300 MB export (minutes each with its generation): BENCH_HEAVY_RUNS, default one. */
export function heavyRuns(runs: number): number {
  return Number(process.env.BENCH_HEAVY_RUNS ?? Math.min(runs, 1));
}

export const bench: BenchModule = {
  name: 'import',
  async run(ctx) {
    const out: FigureSamples[] = [];
    const meta = { ...IMPORT_EXPORTS.chatgpt_100mb, path: 'runImport: parse, write-time safety, staged batches, publish' };
    if (ctx.wants('import.chatgpt_100mb.node')) {
      const runs: ImportTiming[] = [];
      for (let i = 0; i < ctx.runs; i++) {
        const { chunks, counts } = generatedExport();
        const bytes = chunks.reduce((n, c) => n + c.length, 0);
        runs.push(await timeImport(chunks, bytes, counts, () => performance.now(), heapMb));
        ctx.log(`import node run ${i + 1}/${ctx.runs}: ${runs[i]!.seconds.toFixed(1)} s, ${runs[i]!.messages} messages`);
      }
      out.push(
        {
          name: 'import.chatgpt_100mb.node.mb_per_s',
          unit: 'MB/s',
          values: runs.map((r) => r.bytes / 1e6 / r.seconds),
          meta: { ...meta, backend: 'fake-indexeddb' },
        },
        { name: 'import.chatgpt_100mb.node.seconds', unit: 's', values: runs.map((r) => r.seconds), meta },
      );
    }
    for (const name of Object.keys(IMPORT_EXPORTS) as ImportExportName[]) {
      const prefix = `import.${name}.chromium`;
      if (!ctx.wants(prefix)) continue;
      const browser = await ctx.browser();
      const runs: ImportTiming[] = [];
      const count = name === 'chatgpt_100mb' ? ctx.runs : heavyRuns(ctx.runs);
      for (let i = 0; i < count; i++) {
        runs.push(await browser.run<ImportTiming>('importChatgpt', name));
        ctx.log(`${prefix} run ${i + 1}/${count}: ${runs[i]!.seconds.toFixed(1)} s, peak heap ${runs[i]!.peakHeapMb?.toFixed(0)} MB`);
      }
      const chromiumMeta = {
        ...IMPORT_EXPORTS[name],
        path: meta.path,
        messages: runs[0]?.messages,
        backend: 'IndexedDB',
        thread: 'page main thread (the app runs the same code in its import worker)',
      };
      out.push(
        { name: `${prefix}.seconds`, unit: 's', values: runs.map((r) => r.seconds), meta: chromiumMeta },
        { name: `${prefix}.peak_heap_mb`, unit: 'MB', values: runs.map((r) => r.peakHeapMb ?? NaN), meta: chromiumMeta },
        { name: `${prefix}.mb_per_s`, unit: 'MB/s', values: runs.map((r) => r.bytes / 1e6 / r.seconds), meta: chromiumMeta },
      );
    }
    return out;
  },
};
