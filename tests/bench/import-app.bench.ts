/**
 * The app's own import path (tests/bench/app-import.ts): the built app served, the Import screen in
 * Chromium with every worker alive, a generated export picked, timed from the pick to the report.
 * Figures: import.<export>.app.{seconds,eta_error_at_third,longest_main_task_ms,peak_tab_mb} for the
 * 100 MB export and the 300 MB heavy archive. Builds the app first (BENCH_APP_BUILD=skip reuses build/).
 */
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunch } from '../../playwright.config';
import { appImport, buildApp, serveApp, writeExport, type AppImportRun } from './app-import';
import type { BenchModule, FigureSamples } from './harness';
import { heavyRuns } from './import.bench';
import { IMPORT_EXPORTS, type ImportExportName } from './import-work';

export const bench: BenchModule = {
  name: 'import-app',
  async run(ctx) {
    const names = (Object.keys(IMPORT_EXPORTS) as ImportExportName[]).filter((name) => ctx.wants(`import.${name}.app`));
    if (names.length === 0) return [];
    await buildApp(ctx.log);
    const server = await serveApp();
    // Precise heap figures, and measureUserAgentSpecificMemory answering at once rather than at the next GC.
    const browser = await chromium.launch({
      ...chromiumLaunch,
      args: [...chromiumLaunch.args, '--enable-precise-memory-info', '--enable-blink-features=ForceEagerMeasureMemory'],
    });
    const out: FigureSamples[] = [];
    try {
      for (const name of names) {
        const file = join(tmpdir(), `engram-bench-${name}-${process.pid}.json`);
        const counts = await writeExport(file, IMPORT_EXPORTS[name]);
        try {
          const runs: AppImportRun[] = [];
          const count = name === 'chatgpt_100mb' ? ctx.runs : heavyRuns(ctx.runs);
          for (let i = 0; i < count; i++) {
            const run = await appImport(browser, server.url, file, counts);
            runs.push(run);
            ctx.log(
              `import.${name}.app run ${i + 1}/${count}: ${run.seconds.toFixed(1)} s, time left at a third ${run.third?.etaMs ?? '?'} ms ` +
                `vs ${run.third?.actualMs.toFixed(0) ?? '?'} ms, longest main-thread task ${run.longestMainTaskMs.toFixed(0)} ms`,
            );
          }
          const meta = {
            ...IMPORT_EXPORTS[name],
            messages: counts.visible,
            bytes: counts.bytes,
            path: 'built app, Import screen, import worker; index, extraction and pipeline workers alive; file pick to report on screen',
          };
          const prefix = `import.${name}.app`;
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
      await browser.close();
      await server.close();
    }
    return out;
  },
};
