/**
 * `app.first_load_kb`: the gzip size of every script a first visit fetches until the Recall screen
 * is interactive, workers included, models and WASM excluded (issue 18, item 7).
 *
 * How: build the app (`vite build`), serve build/ with scripts/serve.js on a free port, open a
 * fresh Chromium profile (a first visit: empty HTTP cache, no service worker), load `/` and record
 * every script response of the page and of its dedicated workers. "Interactive" is: the recall box
 * has focus and the index worker answered (the "Starting the search index…" line is gone); then
 * the bench waits until no script has arrived for QUIET_MS, so chunks a worker imports at start-up
 * are counted too. Each script's body is gzipped here (zlib level 6, a typical server setting):
 * serve.js sends them uncompressed. The service worker's own precache fetches (it downloads the
 * shell in the background) are not part of the first load; `app.all_scripts_kb` is the gzip size
 * of every script in build/, for scale (the precache holds all but files over 4 MB, WebLLM's two
 * bundles, which it caches on first use). Models (`.onnx`, /test-models/) and WASM files are excluded; WASM embedded in a script as
 * base64 (hnswlib-wasm) is part of that script and counts.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Request, type Response } from '@playwright/test';
import { chromiumLaunch } from '../../playwright.config';
import type { BenchModule, FigureSamples } from './harness';

const root = fileURLToPath(new URL('../..', import.meta.url));
const QUIET_MS = 2_000;
const EXCLUDED = /\.(wasm|onnx)(\?|$)|\/test-models\//u;

export interface LoadedScript {
  path: string;
  bytes: number;
  gzipBytes: number;
  /** 'page', 'worker' (a dedicated worker's script or one it imports) or 'service-worker'. */
  by: 'page' | 'worker' | 'service-worker';
  /** Arrived after the Recall screen was interactive (still within the quiet window, so counted). */
  afterInteractive: boolean;
}

export interface FirstLoad {
  scripts: LoadedScript[];
  interactiveMs: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['scripts/serve.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('scripts/serve.js did not start in 30 s')), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('being served')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`scripts/serve.js exited with ${code}`)));
  });
  return child;
}

function initiator(request: Request): LoadedScript['by'] | null {
  if (request.serviceWorker()) return 'service-worker';
  try {
    request.frame();
    return 'page';
  } catch {
    // Requests of dedicated workers have no frame in some Playwright versions.
    return 'worker';
  }
}

/** One first visit in a fresh profile. */
export async function measureFirstLoad(baseUrl: string): Promise<FirstLoad> {
  const browser = await chromium.launch(chromiumLaunch);
  try {
    const context = await browser.newContext();
    const pending: Promise<void>[] = [];
    const scripts: LoadedScript[] = [];
    let lastScriptAt = Date.now();
    let interactiveAt = Infinity;
    const workerUrls = new Set<string>();
    const record = async (response: Response): Promise<void> => {
      const at = Date.now();
      const request = response.request();
      const url = new URL(response.url());
      if (url.origin !== new URL(baseUrl).origin || EXCLUDED.test(url.pathname) || response.status() !== 200) return;
      const by = initiator(request);
      const isScript = url.pathname.endsWith('.js') || request.resourceType() === 'script';
      if (!isScript || by === null) return;
      const body = await response.body().catch(() => null);
      if (!body) return;
      const entry: LoadedScript = {
        path: url.pathname,
        bytes: body.length,
        gzipBytes: gzipSync(body, { level: 6 }).length,
        by: by === 'page' && (workerUrls.has(url.href) || url.pathname.includes('/workers/')) ? 'worker' : by,
        afterInteractive: at > interactiveAt,
      };
      // The service worker's precache requests are background downloads, not the first load.
      if (by === 'service-worker' && request.resourceType() === 'fetch') return;
      scripts.push(entry);
      lastScriptAt = Date.now();
    };
    context.on('response', (response) => pending.push(record(response)));
    const page = await context.newPage();
    page.on('worker', (worker) => workerUrls.add(worker.url()));
    const started = Date.now();
    await page.goto(baseUrl);
    const input = page.getByTestId('recall-input');
    await input.waitFor({ timeout: 120_000 });
    await page.waitForFunction(
      () =>
        document.activeElement?.getAttribute('data-testid') === 'recall-input' &&
        document.querySelector('[data-testid="recall-index-state"][data-state="starting"]') === null,
      null,
      { timeout: 120_000 },
    );
    interactiveAt = Date.now();
    const interactiveMs = interactiveAt - started;
    while (Date.now() - lastScriptAt < QUIET_MS) await page.waitForTimeout(250);
    await Promise.all(pending);
    await context.close();
    return { scripts: dedupe(scripts), interactiveMs };
  } finally {
    await browser.close();
  }
}

function allScriptsGzip(): number {
  let total = 0;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) total += gzipSync(readFileSync(path), { level: 6 }).length;
    }
  };
  walk(join(root, 'build'));
  return total;
}

function dedupe(list: LoadedScript[]): LoadedScript[] {
  const byPath = new Map<string, LoadedScript>();
  for (const s of list) if (!byPath.has(s.path)) byPath.set(s.path, s);
  return [...byPath.values()].sort((a, b) => b.gzipBytes - a.gzipBytes);
}

const kb = (bytes: number) => bytes / 1024;
const sum = (list: readonly LoadedScript[], key: 'bytes' | 'gzipBytes') => list.reduce((n, s) => n + s[key], 0);

export const bench: BenchModule = {
  name: 'app',
  async run(ctx) {
    if (!ctx.wants('app.')) return [];
    ctx.log('building the app (vite build)…');
    execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'error'], { cwd: root, stdio: 'inherit' });
    const port = await freePort();
    const server = await startServer(port);
    try {
      const loads: FirstLoad[] = [];
      for (let i = 0; i < ctx.runs; i++) {
        const load = await measureFirstLoad(`http://127.0.0.1:${port}/`);
        loads.push(load);
        ctx.log(
          `first load run ${i + 1}/${ctx.runs}: ${load.scripts.length} scripts, ${kb(sum(load.scripts, 'gzipBytes')).toFixed(0)} KB gzip, ` +
            `${kb(sum(load.scripts, 'bytes')).toFixed(0)} KB raw, interactive after ${load.interactiveMs} ms`,
        );
      }
      const last = loads.at(-1)!;
      const meta = {
        what: 'gzip (zlib level 6) of every script fetched by a first visit until the Recall screen is interactive, workers included, models and WASM excluded',
        scripts: last.scripts.map((s) => ({
          path: s.path,
          by: s.by,
          kb: Math.round(kb(s.bytes)),
          gzip_kb: Math.round(kb(s.gzipBytes)),
          after_interactive: s.afterInteractive,
        })),
        after_interactive_gzip_kb: Math.round(
          kb(
            sum(
              last.scripts.filter((s) => s.afterInteractive),
              'gzipBytes',
            ),
          ),
        ),
        workers_gzip_kb: Math.round(
          kb(
            sum(
              last.scripts.filter((s) => s.by === 'worker'),
              'gzipBytes',
            ),
          ),
        ),
      };
      const out: FigureSamples[] = [
        { name: 'app.first_load_kb', unit: 'KB', values: loads.map((l) => kb(sum(l.scripts, 'gzipBytes'))), meta },
        { name: 'app.first_load_raw_kb', unit: 'KB', values: loads.map((l) => kb(sum(l.scripts, 'bytes'))) },
        { name: 'app.first_load_scripts', unit: 'files', values: loads.map((l) => l.scripts.length) },
        { name: 'app.first_load_interactive_ms', unit: 'ms', values: loads.map((l) => l.interactiveMs) },
        {
          name: 'app.all_scripts_kb',
          unit: 'KB',
          values: [kb(allScriptsGzip())],
          meta: { what: 'gzip of every script in build/ (the service worker precaches all but those over 4 MB; not the first load)' },
        },
      ];
      return out;
    } finally {
      server.kill();
    }
  },
};
