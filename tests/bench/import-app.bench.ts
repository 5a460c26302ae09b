/**
 * The app's own import path (tests/bench/app-import.ts): the built app served, the Import screen in
 * Chromium with every worker alive, a generated export picked, timed from the pick to the report.
 * Figures: import.<export>.app.{seconds,eta_error_at_third,longest_main_task_ms,peak_tab_mb} for the
 * 100 MB export and the 300 MB heavy archive. Builds the app first (BENCH_APP_BUILD=skip reuses build/).
 *
 * BENCH_APP_SETTLE=1 goes on after each import's report (app-import.ts `settle`): it waits for every
 * index job, reloads the page and times the saved indexes' load, asks one recall and measures the
 * tab: app.<size>.{index_s,recall_ms,memory_mb,renderer_rss_mb,js_heaps_mb,page_heap_mb}, the RSS and
 * heaps again after a forced garbage collection (`renderer_rss_after_gc_mb`, `js_heaps_after_gc_mb`), and
 * index.load.<size>.seconds, where
 * <size> is 22k for the 100 MB export and 300k for the heavy archive (their visible messages).
 * BENCH_APP_KEEP_PROFILE=1 leaves each run's browser profile on disk and prints where.
 * BENCH_APP_TRACE=DIR writes a Chromium trace of each import, from the pick to the report, to DIR
 * (every thread, the page's and the workers', with CPU samples: open it in DevTools' Performance
 * panel). Tracing slows the import: a traced run's figures are not the bench's.
 */
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumLaunch } from '../../playwright.config';
import { appImport, buildApp, serveApp, writeExport, type AppImportRun } from './app-import';
import type { BenchModule, FigureSamples } from './harness';
import { heavyRuns } from './import.bench';
import { IMPORT_EXPORTS, type ImportExportName } from './import-work';

const SIZE_LABEL: Record<ImportExportName, string> = { chatgpt_100mb: '22k', chatgpt_300mb: '300k' };
const SETTLE_PROMPT = 'Which database did we pick for the project, and why?';
const SETTLE_TIMEOUT_MS = Number(process.env.BENCH_APP_SETTLE_TIMEOUT_MIN ?? 90) * 60_000;
const settle = process.env.BENCH_APP_SETTLE === '1' ? { prompt: SETTLE_PROMPT, timeoutMs: SETTLE_TIMEOUT_MS } : null;

export const bench: BenchModule = {
  name: 'import-app',
  async run(ctx) {
    const names = (Object.keys(IMPORT_EXPORTS) as ImportExportName[]).filter((name) => ctx.wants(`import.${name}.app`));
    if (names.length === 0) return [];
    await buildApp(ctx.log);
    const server = await serveApp();
    // Precise heap figures, and measureUserAgentSpecificMemory answering at once rather than at the next GC.
    const launch = {
      ...chromiumLaunch,
      args: [...chromiumLaunch.args, '--enable-precise-memory-info', '--enable-blink-features=ForceEagerMeasureMemory'],
    };
    const out: FigureSamples[] = [];
    try {
      for (const name of names) {
        const file = join(tmpdir(), `engram-bench-${name}-${process.pid}.json`);
        const counts = await writeExport(file, IMPORT_EXPORTS[name]);
        try {
          const runs: AppImportRun[] = [];
          const count = name === 'chatgpt_100mb' ? ctx.runs : heavyRuns(ctx.runs);
          for (let i = 0; i < count; i++) {
            const run = await appImport(launch, server.url, file, counts, {
              timeoutMs: 40 * 60_000,
              keepProfile: process.env.BENCH_APP_KEEP_PROFILE === '1',
              ...(process.env.BENCH_APP_TRACE
                ? { trace: join(process.env.BENCH_APP_TRACE, `${name}-run${i + 1}-${Date.now()}.json`) }
                : {}),
              ...(settle ? { settle } : {}),
            });
            runs.push(run);
            if (run.settled) {
              ctx.log(
                `app.${SIZE_LABEL[name]} run ${i + 1}: indexed ${run.settled.indexSeconds.toFixed(0)} s after the report, ` +
                  `${run.settled.documents} documents loaded ${run.settled.loadSeconds.toFixed(1)} s after a reload, ` +
                  `one recall ${run.settled.recallMs} ms, tab ${run.settled.tabMb?.toFixed(0) ?? '?'} MB, page heap ${run.settled.pageHeapMb?.toFixed(0) ?? '?'} MB, ` +
                  `renderer RSS ${run.settled.rendererRssMb?.toFixed(0) ?? '?'} MB, JS heaps ${Object.entries(run.settled.heapsMb)
                    .map(([name, mb]) => `${name} ${mb.toFixed(0)}`)
                    .join(
                      ', ',
                    )} MB; after a forced GC RSS ${run.settled.rendererRssAfterGcMb?.toFixed(0) ?? '?'} MB, JS heaps ${Object.entries(
                    run.settled.heapsAfterGcMb,
                  )
                    .map(([name, mb]) => `${name} ${mb.toFixed(0)}`)
                    .join(', ')} MB`,
              );
            }
            ctx.log(
              `import.${name}.app run ${i + 1}/${count}: ${run.seconds.toFixed(1)} s, time left at a third ${run.third?.etaMs ?? '?'} ms ` +
                `vs ${run.third?.actualMs.toFixed(0) ?? '?'} ms, longest main-thread task ${run.longestMainTaskMs.toFixed(0)} ms`,
            );
          }
          const meta = {
            ...IMPORT_EXPORTS[name],
            messages: counts.visible,
            bytes: counts.bytes,
            path: 'built app in a fresh on-disk Chromium profile, Import screen, import worker; index, extraction and pipeline workers alive; file pick to report on screen',
          };
          const prefix = `import.${name}.app`;
          const settledRuns = runs.flatMap((r) => (r.settled ? [r.settled] : []));
          if (settledRuns.length) {
            const size = SIZE_LABEL[name];
            const after = { ...meta, documents: settledRuns[0]!.documents, prompt: SETTLE_PROMPT, embedder: 'lexical-v1-384', llm: null };
            out.push(
              {
                name: `app.${size}.index_s`,
                unit: 's',
                values: settledRuns.map((r) => r.indexSeconds),
                meta: { ...after, what: 'report to "up to date" in Settings' },
              },
              {
                name: `index.load.${size}.seconds`,
                unit: 's',
                values: settledRuns.map((r) => r.loadSeconds),
                meta: { ...after, what: 'page reload until the serving vector index holds every document (BM25 and vectors loaded)' },
              },
              {
                name: `app.${size}.recall_ms`,
                unit: 'ms',
                values: settledRuns.map((r) => r.recallMs),
                meta: { ...after, what: 'submit to package on screen, after the reload' },
              },
              {
                name: `app.${size}.memory_mb`,
                unit: 'MB',
                values: settledRuns.map((r) => r.tabMb ?? NaN),
                meta: { ...after, what: 'measureUserAgentSpecificMemory (page and workers) after the recall' },
              },
              {
                name: `app.${size}.renderer_rss_mb`,
                unit: 'MB',
                values: settledRuns.map((r) => r.rendererRssMb ?? NaN),
                meta: { ...after, what: 'VmRSS of the largest renderer process (the page and its dedicated workers) after the recall' },
              },
              {
                name: `app.${size}.js_heaps_mb`,
                unit: 'MB',
                values: settledRuns.map((r) => Object.values(r.heapsMb).reduce((a, b) => a + b, 0)),
                meta: {
                  ...after,
                  what: 'JS heap in use (CDP Runtime.getHeapUsage) of the page and every worker, summed, after the recall',
                  heaps: settledRuns.map((r) => r.heapsMb),
                },
              },
              {
                name: `app.${size}.renderer_rss_after_gc_mb`,
                unit: 'MB',
                values: settledRuns.map((r) => r.rendererRssAfterGcMb ?? NaN),
                meta: {
                  ...after,
                  what: 'VmRSS of the largest renderer process 2 s after a garbage collection forced in the page and every worker (CDP HeapProfiler.collectGarbage), after the readings above: the live memory',
                },
              },
              {
                name: `app.${size}.js_heaps_after_gc_mb`,
                unit: 'MB',
                values: settledRuns.map((r) => Object.values(r.heapsAfterGcMb).reduce((a, b) => a + b, 0)),
                meta: {
                  ...after,
                  what: 'the JS heaps in use after that garbage collection, summed',
                  heaps: settledRuns.map((r) => r.heapsAfterGcMb),
                },
              },
              {
                name: `app.${size}.page_heap_mb`,
                unit: 'MB',
                values: settledRuns.map((r) => r.pageHeapMb ?? NaN),
                meta: { ...after, what: 'performance.memory.usedJSHeapSize of the page after the recall' },
              },
            );
          }
          out.push(
            { name: `${prefix}.seconds`, unit: 's', values: runs.map((r) => r.seconds), meta },
            {
              name: `${prefix}.eta_error_at_third`,
              unit: 'ratio',
              values: runs.map((r) => r.third?.error ?? NaN),
              meta: { ...meta, what: '|time left shown when a third was read - time the rest took| / time the rest took' },
            },
            {
              name: `${prefix}.longest_main_task_ms`,
              unit: 'ms',
              values: runs.map((r) => r.longestMainTaskMs),
              meta: { ...meta, what: 'longest main-thread task (Long Tasks API) from the pick to the report' },
            },
            {
              name: `${prefix}.peak_tab_mb`,
              unit: 'MB',
              values: runs.map((r) => r.peakTabMb ?? NaN),
              meta: { ...meta, what: 'peak of measureUserAgentSpecificMemory (page and its workers), sampled every 2 s' },
            },
          );
        } finally {
          await rm(file, { force: true });
        }
      }
    } finally {
      await server.close();
    }
    return out;
  },
};
