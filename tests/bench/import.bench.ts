import type { BenchModule, FigureSamples } from './harness';
import { generatedExport, IMPORT_BENCH, timeImport, type ImportTiming } from './import-work';

const heapMb = () => process.memoryUsage().heapUsed / 2 ** 20;

export const bench: BenchModule = {
  name: 'import',
  async run(ctx) {
    const out: FigureSamples[] = [];
    const meta = { ...IMPORT_BENCH, path: 'runImport: parse, write-time safety, staged batches, publish' };
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
    if (ctx.wants('import.chatgpt_100mb.chromium')) {
      const browser = await ctx.browser();
      const runs: ImportTiming[] = [];
      for (let i = 0; i < ctx.runs; i++) {
        runs.push(await browser.run<ImportTiming>('importChatgpt100mb'));
        ctx.log(
          `import chromium run ${i + 1}/${ctx.runs}: ${runs[i]!.seconds.toFixed(1)} s, peak heap ${runs[i]!.peakHeapMb?.toFixed(0)} MB`,
        );
      }
      const chromiumMeta = { ...meta, backend: 'IndexedDB', thread: 'page main thread (the app runs the same code in its import worker)' };
      out.push(
        { name: 'import.chatgpt_100mb.chromium.seconds', unit: 's', values: runs.map((r) => r.seconds), meta: chromiumMeta },
        {
          name: 'import.chatgpt_100mb.chromium.peak_heap_mb',
          unit: 'MB',
          values: runs.map((r) => r.peakHeapMb ?? NaN),
          meta: chromiumMeta,
        },
        {
          name: 'import.chatgpt_100mb.chromium.mb_per_s',
          unit: 'MB/s',
          values: runs.map((r) => r.bytes / 1e6 / r.seconds),
          meta: chromiumMeta,
        },
      );
    }
    return out;
  },
};
