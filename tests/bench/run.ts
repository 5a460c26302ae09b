/**
 * `npm run bench -- --out FILE [--runs N] [--only prefix,prefix]`
 * Runs every benchmark module in tests/bench/*.bench.ts and writes one JSON file of named figures
 * (median of the runs, with min and max) and the machine it ran on. Not a test: nothing asserts.
 */
import '../../src/cli/node-env';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { createServer, type ViteDevServer } from 'vite';
import { chromiumLaunch } from '../../playwright.config';
import { securityHeaders } from '../../scripts/security-headers.js';
import {
  summarize,
  writeCpuProfile,
  type BenchContext,
  type BenchModule,
  type BrowserBench,
  type FigureSamples,
  type FigureSummary,
} from './harness';

const root = fileURLToPath(new URL('../..', import.meta.url));
const benchDir = fileURLToPath(new URL('.', import.meta.url));

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'bench.json' },
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
  },
});
const runs = Math.max(1, Number(values.runs));
const only = values.only ? values.only.split(',').map((s) => s.trim()) : null;
const wants = (prefix: string) => !only || only.some((o) => prefix.startsWith(o) || o.startsWith(prefix));

let server = null as ViteDevServer | null;
let browser = null as BrowserContext | null;
let profile: string | null = null;
let page: Page | null = null;
let browserVersion: string | null = null;

async function openBrowser(): Promise<BrowserBench> {
  if (!page) {
    server = await createServer({
      configFile: false,
      root: `${benchDir}browser`,
      logLevel: 'warn',
      server: { port: 0, host: '127.0.0.1', fs: { allow: [root] }, headers: securityHeaders() },
      resolve: { alias: { $lib: `${root}src/lib` } },
      optimizeDeps: { exclude: ['@huggingface/transformers', 'hnswlib-wasm'] },
    });
    await server.listen();
    const address = server.resolvedUrls?.local[0];
    if (!address) throw new Error('The benchmark page server did not start.');
    // A fresh profile on disk, as a person's browser keeps IndexedDB: an incognito context
    // (`browser.newPage`) keeps it in memory, where every transaction costs more and the quota is small.
    // Precise memory info: performance.memory otherwise reports bucketed, delayed heap sizes.
    profile = await mkdtemp(join(os.tmpdir(), 'engram-bench-page-'));
    browser = await chromium.launchPersistentContext(profile, {
      ...chromiumLaunch,
      args: [...chromiumLaunch.args, '--enable-precise-memory-info'],
    });
    browserVersion = browser.browser()?.version() ?? null;
    page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') console.error(`[chromium] ${message.text()}`);
    });
    await page.goto(address);
    await page.waitForFunction(() => (window as unknown as { __benchReady?: boolean }).__benchReady === true, null, { timeout: 120_000 });
  }
  const active = page;
  return {
    run: <T>(name: string, args?: unknown) => profiled(active, name, () => evaluate<T>(active, name, args)),
    collectGarbage: async () => {
      const cdp = await active.context().newCDPSession(active);
      try {
        await cdp.send('HeapProfiler.collectGarbage');
      } finally {
        await cdp.detach();
      }
    },
  };
}

/**
 * With BENCH_CPU_PROFILE=DIR, each browser benchmark function runs under Chromium's sampling
 * profiler and its profile is written to DIR as `<name>-<time>.cpuprofile` (open it in Chrome's
 * DevTools, Performance panel). Only the page's own thread is sampled: a worker's or the database's
 * time shows as idle there.
 */
async function profiled<T>(active: Page, name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return work();
  const cdp = await active.context().newCDPSession(active);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
  await cdp.send('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile: cpu } = await cdp.send('Profiler.stop');
    await writeCpuProfile(dir, name, cpu);
    await cdp.detach();
  }
}

function evaluate<T>(active: Page, name: string, args?: unknown): Promise<T> {
  return active.evaluate(
    async ([fn, input]) => {
      const registry = (window as unknown as { __bench: Record<string, (a: unknown) => Promise<unknown>> }).__bench;
      const target = registry[fn as string];
      if (!target) throw new Error(`No browser benchmark named ${String(fn)}`);
      return target(input);
    },
    [name, args] as const,
  ) as Promise<T>;
}

function machine() {
  let chromiumBinary: string | null;
  try {
    chromiumBinary = execFileSync(chromiumLaunch.executablePath, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    chromiumBinary = null;
  }
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: `${os.platform()} ${os.release()}`,
    node: process.versions.node,
    chromium: browserVersion ?? chromiumBinary,
  };
}

async function main(): Promise<void> {
  const files = (await readdir(benchDir)).filter((f) => f.endsWith('.bench.ts')).sort();
  const figures: Record<string, FigureSummary> = {};
  const skipped: Record<string, string> = {};
  const ctx: BenchContext = {
    runs,
    dataDir: `${root}../shared/data`,
    log: (message) => console.log(`  ${message}`),
    browser: openBrowser,
    wants,
    asked: (prefix) => only !== null && wants(prefix),
  };
  const started = Date.now();
  for (const file of files) {
    const module = (await import(pathToFileURL(`${benchDir}${file}`).href)) as { bench?: BenchModule };
    if (!module.bench) continue;
    if (only && !only.some((o) => o.startsWith(module.bench!.name) || module.bench!.name.startsWith(o.split('.')[0]!))) continue;
    console.log(`▶ ${module.bench.name} (${file})`);
    try {
      const samples: FigureSamples[] = await module.bench.run(ctx);
      for (const s of samples) {
        figures[s.name] = { unit: s.unit, ...summarize(s.values), runs: s.values.length, ...(s.meta ? { meta: s.meta } : {}) };
        console.log(`  ${s.name} = ${figures[s.name]!.median.toFixed(3)} ${s.unit}`);
      }
    } catch (error) {
      skipped[module.bench.name] = error instanceof Error ? error.message : String(error);
      console.error(`  ${module.bench.name} failed: ${skipped[module.bench.name]}`);
    }
  }
  const report = {
    generatedAt: new Date().toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    durationS: Math.round((Date.now() - started) / 1000),
    machine: machine(),
    figures,
    ...(Object.keys(skipped).length ? { failed: skipped } : {}),
  };
  await writeFile(values.out!, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Wrote ${Object.keys(figures).length} figures to ${values.out}`);
}

try {
  await main();
} finally {
  await browser?.close();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
}
