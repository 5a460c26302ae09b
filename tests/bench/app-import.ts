/**
 * The app's own import path, as a person meets it: the built app served by scripts/serve.js, the
 * Import screen in Chromium with the index, extraction and pipeline workers alive, a generated
 * ChatGPT export picked in the file input, timed from the pick to the report on screen. The page
 * itself records (an init script, so nothing waits on the Playwright channel): the pick time, the
 * progress line's samples, the report's arrival, main-thread long tasks (Long Tasks API) and, when
 * the page is cross-origin isolated, the whole tab's memory (measureUserAgentSpecificMemory: the
 * page and its dedicated workers).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type LaunchOptions, type Page } from '@playwright/test';
import { chatgptExport, type GeneratedCounts, type GeneratorOptions } from '../factories/import-generator';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ProgressSample {
  /** ms since the file was picked */
  t: number;
  bytesRead: number;
  bytesTotal: number;
  etaMs: number | null;
}

export interface AppImportRun {
  seconds: number;
  conversations: number;
  messages: number;
  bytes: number;
  /** The progress line's time left when a third of the bytes were read, and what it really took. */
  third: { etaMs: number | null; actualMs: number; error: number | null } | null;
  longestMainTaskMs: number;
  longTasks: number;
  /** Peak of the whole tab (page + workers), MB, sampled about every 2 s; null when not measurable. */
  peakTabMb: number | null;
  samples: ProgressSample[];
  /** With `settle`: what the vault costs once indexed (null without). */
  settled: AppSettled | null;
}

/** After the import: indexing finished, the app reopened, one recall asked. */
export interface AppSettled {
  /** From the report to the Settings screen's "up to date" (every index job done). */
  indexSeconds: number;
  /** A reload of the Settings screen until the serving vector index holds every document again. */
  loadSeconds: number;
  /** Documents in the index. */
  documents: number;
  /** One recall: from the submit to the package on screen. */
  recallMs: number;
  /** measureUserAgentSpecificMemory after that recall (page and workers), MB; null when not measurable. */
  tabMb: number | null;
  /** performance.memory.usedJSHeapSize of the page alone, MB. */
  pageHeapMb: number | null;
  /** JS heap in use (CDP Runtime.getHeapUsage) of the page and of each of its workers, MB, by their script's name. */
  heapsMb: Record<string, number>;
  /** Resident memory of the largest renderer process of the profile (the tab: the page and its dedicated workers), MB; null off Linux. */
  rendererRssMb: number | null;
  /**
   * The same two after a garbage collection forced in the page and every worker (CDP
   * `HeapProfiler.collectGarbage`) and 2 s: the live memory. The readings above can hold the
   * load's garbage, which V8 collects when it chooses (at 300k: 959-1,561 MB right after the
   * recall, 774-786 MB after a collection, 2026-11-30).
   */
  rendererRssAfterGcMb: number | null;
  heapsAfterGcMb: Record<string, number>;
}

/** Writes a generated export to `path` without holding it whole; returns what was generated. */
export async function writeExport(path: string, opts: GeneratorOptions): Promise<GeneratedCounts> {
  const { chunks, counts } = chatgptExport(opts);
  const out = createWriteStream(path);
  for (const chunk of chunks) {
    if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return counts;
}

async function freePort(): Promise<number> {
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

/** Builds the app (vite build) unless BENCH_APP_BUILD=skip; the figures are of the code as it is. */
export async function buildApp(log: (message: string) => void): Promise<void> {
  if (process.env.BENCH_APP_BUILD === 'skip') return;
  const started = Date.now();
  await run('npx', ['vite', 'build', '--logLevel', 'error']);
  log(`built the app in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

/** Serves build/ with the app's headers on a free port; `close` stops the server. */
export async function serveApp(): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['scripts/serve.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`scripts/serve.js exited with ${code}`)));
    child.stdout!.on('data', (data: Buffer) => {
      if (data.toString().includes('being served')) resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Recorded in the page from its first script on. Plain JavaScript in a string: a function passed
 * to addInitScript is serialized with whatever helpers the TypeScript loader put into it (tsx adds
 * `__name` calls), which do not exist in the page.
 */
const PAGE_PROBE = `(() => {
  const probe = { pickedAt: null, reportAt: null, samples: [], longTasks: [], peakTabBytes: null };
  window.__appImport = probe;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        // Only the import's: from the pick until the report is on screen.
        if (probe.pickedAt !== null && probe.reportAt === null && entry.startTime >= probe.pickedAt) probe.longTasks.push(entry.duration);
      }
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  document.addEventListener('change', (event) => {
    const target = event.target;
    if (target && target.type === 'file' && probe.pickedAt === null) probe.pickedAt = performance.now();
  }, true);
  setInterval(() => {
    if (probe.pickedAt === null || probe.reportAt !== null) return;
    if (document.querySelector('[data-testid="import-report"]')) {
      probe.reportAt = performance.now();
      return;
    }
    const progress = document.querySelector('[data-testid="import-progress"][data-bytes-read]');
    if (progress) {
      const eta = progress.dataset.etaMs;
      probe.samples.push({
        t: performance.now() - probe.pickedAt,
        bytesRead: Number(progress.dataset.bytesRead),
        bytesTotal: Number(progress.dataset.bytesTotal),
        etaMs: eta === undefined || eta === '' ? null : Number(eta),
      });
    }
  }, 50);
  if (performance.measureUserAgentSpecificMemory && self.crossOriginIsolated) {
    const sample = () => {
      if (probe.reportAt !== null) return;
      performance.measureUserAgentSpecificMemory()
        .then((m) => (probe.peakTabBytes = Math.max(probe.peakTabBytes ?? 0, m.bytes)))
        .catch(() => undefined)
        .finally(() => setTimeout(sample, 2000));
    };
    sample();
  }
})();`;

/**
 * One import through the Import screen in a fresh browser profile on disk (an empty vault). On disk,
 * as a person's browser keeps it: an incognito context (Playwright's `browser.newContext`) keeps
 * IndexedDB in memory under a small quota, which the heavy archive's chunks overflow
 * (`store/quota-exceeded` at 7,150 of 10,000 conversations). `keepProfile`: leave the profile on
 * disk (its path is printed) to open the vault again, for example to profile a reload.
 */
export async function appImport(
  launch: LaunchOptions,
  url: string,
  file: string,
  expected: GeneratedCounts,
  options: { timeoutMs?: number; trace?: string; settle?: { prompt: string; timeoutMs: number }; keepProfile?: boolean } = {},
): Promise<AppImportRun> {
  const profile = await mkdtemp(join(tmpdir(), 'engram-app-bench-'));
  const context = await chromium.launchPersistentContext(profile, { ...launch, baseURL: url, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: PAGE_PROBE });
    page.on('console', (message) => {
      if (message.type() === 'error') console.error(`[app] ${message.text()}`);
    });
    await page.goto('/import');
    await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
    // The workers are up: the index worker answers its status, the import worker rolled back.
    await page.getByTestId('import-empty').waitFor({ timeout: 60_000 });
    await page.waitForTimeout(1500);
    const cdp = options.trace ? await context.newCDPSession(page) : null;
    if (cdp) await startTrace(cdp);
    await page.getByTestId('import-file').setInputFiles(file);
    // Functions without inner named declarations: tsx adds no helper to them (see PAGE_PROBE).
    await page.waitForFunction(
      () => (window as unknown as { __appImport: { reportAt: number | null } }).__appImport.reportAt !== null,
      null,
      {
        timeout: options.timeoutMs ?? 10 * 60_000,
        polling: 250,
      },
    );
    if (cdp) await stopTrace(cdp, options.trace!);
    const p = (await page.evaluate(() => (window as unknown as { __appImport: unknown }).__appImport)) as {
      pickedAt: number;
      reportAt: number;
      samples: ProgressSample[];
      longTasks: number[];
      peakTabBytes: number | null;
    };
    const status = await page.getByTestId('import-report').getAttribute('data-status');
    // The report formats its counts for the locale ("22,400"): digits only.
    const count = async (testId: string) => Number(((await page.getByTestId(testId).textContent()) ?? '').replace(/\D/gu, ''));
    const conversations = await count('report-conversations-stored');
    const messages = await count('report-messages-stored');
    if (status !== 'done' || conversations !== expected.conversations || messages !== expected.visible) {
      throw new Error(
        `app import ended ${status} with ${conversations}/${messages}, expected ${expected.conversations}/${expected.visible}`,
      );
    }
    const totalMs = p.reportAt - p.pickedAt;
    // A settle step that fails keeps the import's figures (its error is printed).
    const settled = options.settle
      ? await settle(context, page, profile, options.settle).catch((error: unknown) => {
          console.error(`settle step failed: ${error instanceof Error ? error.message : String(error)}`);
          return null;
        })
      : null;
    return {
      seconds: totalMs / 1000,
      conversations,
      messages,
      bytes: expected.bytes,
      third: thirdWay(p.samples, totalMs),
      longestMainTaskMs: p.longTasks.length ? Math.max(...p.longTasks) : 0,
      longTasks: p.longTasks.length,
      peakTabMb: p.peakTabBytes === null ? null : p.peakTabBytes / 2 ** 20,
      samples: p.samples,
      settled,
    };
  } finally {
    await context.close();
    // IndexedDB is per origin: the vault opens again only on the same port.
    if (options.keepProfile) console.error(`profile kept in ${profile}, its vault under ${url}`);
    else await rm(profile, { recursive: true, force: true });
  }
}

/** The serving index's "N of M documents" in Settings, once it holds every document (else null). */
async function loadedDocuments(page: Page): Promise<number | null> {
  const text =
    (await page
      .getByTestId('health-vectors')
      .textContent()
      .catch(() => null)) ?? '';
  const match = /^\s*([\d,]+) of ([\d,]+) documents/u.exec(text);
  if (!match) return null;
  const [count, total] = [Number(match[1]!.replace(/,/gu, '')), Number(match[2]!.replace(/,/gu, ''))];
  return count > 0 && count === total ? count : null;
}

async function settle(
  context: BrowserContext,
  page: Page,
  profile: string,
  options: { prompt: string; timeoutMs: number },
): Promise<AppSettled> {
  const started = Date.now();
  // By the app's own link: \`page.goto\` would load the app again and stop the workers mid-job (their
  // jobs resume from a checkpoint after the index loads), which a person indexing never meets.
  await page.getByTestId('nav-settings').click();
  // "Up to date" alone can show before the import's jobs are picked up (a first try measured 2 s
  // for 44k documents): indexed means every document has a vector and no job is left.
  const upToDate = page.getByTestId('index-up-to-date');
  while ((await loadedDocuments(page)) === null || !(await upToDate.isVisible())) {
    if (Date.now() - started > options.timeoutMs) throw new Error('indexing did not finish');
    await page.waitForTimeout(500);
  }
  const indexSeconds = (Date.now() - started) / 1000;
  // Reopen: the workers start again and load the saved indexes.
  const reloadAt = Date.now();
  await page.reload();
  let documents = await loadedDocuments(page);
  while (documents === null) {
    if (Date.now() - reloadAt > options.timeoutMs) throw new Error('the index did not load after a reload');
    await page.waitForTimeout(100);
    documents = await loadedDocuments(page);
  }
  const loadSeconds = (Date.now() - reloadAt) / 1000;
  // To Recall by the app's own link: `page.goto` loads the app again, workers and index with it,
  // and the first settle runs timed that second load as the recall (42 s at 22k messages).
  await page.getByTestId('nav-recall').click();
  await page.getByTestId('recall-input').fill(options.prompt);
  const asked = Date.now();
  await page.getByTestId('recall-submit').click();
  // An answer: a package, or the screen saying the vault holds nothing on it (both end in the summary).
  await page.getByTestId('recall-summary').waitFor({ timeout: 120_000 });
  const recallMs = Date.now() - asked;
  const memory = await page.evaluate(async () => {
    const perf = performance as Performance & {
      measureUserAgentSpecificMemory?: () => Promise<{ bytes: number }>;
      memory?: { usedJSHeapSize: number };
    };
    const tab =
      perf.measureUserAgentSpecificMemory && self.crossOriginIsolated ? (await perf.measureUserAgentSpecificMemory()).bytes : null;
    return { tab, page: perf.memory?.usedJSHeapSize ?? null };
  });
  const cdp = await context.newCDPSession(page);
  try {
    const heapsMb = await heapsInUse(cdp);
    const rendererRssMb = await largestRendererRss(profile);
    const heapsAfterGcMb = await heapsInUse(cdp, { collect: true });
    await page.waitForTimeout(2_000);
    return {
      indexSeconds,
      loadSeconds,
      documents,
      recallMs,
      tabMb: memory.tab === null ? null : memory.tab / 2 ** 20,
      pageHeapMb: memory.page === null ? null : memory.page / 2 ** 20,
      heapsMb,
      rendererRssMb,
      heapsAfterGcMb,
      rendererRssAfterGcMb: await largestRendererRss(profile),
    };
  } finally {
    await cdp.detach();
  }
}

/**
 * JS heap in use (Runtime.getHeapUsage) of the page and of each of its workers (attached through the
 * page's session), MB; `collect`: each after a forced garbage collection (HeapProfiler.collectGarbage).
 */
async function heapsInUse(cdp: Cdp, options: { collect?: boolean } = {}): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  if (options.collect) await cdp.send('HeapProfiler.collectGarbage');
  const page = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  out.page = page.usedSize / 2 ** 20;
  const workers: { sessionId: string; url: string }[] = [];
  const attached = (event: { sessionId: string; targetInfo: { type: string; url: string } }) => {
    if (event.targetInfo.type === 'worker') workers.push({ sessionId: event.sessionId, url: event.targetInfo.url });
  };
  cdp.on('Target.attachedToTarget', attached);
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  cdp.off('Target.attachedToTarget', attached);
  let id = 0;
  for (const worker of workers) {
    if (options.collect) await workerCall(cdp, worker.sessionId, ++id, 'HeapProfiler.collectGarbage');
    const used = (await workerCall(cdp, worker.sessionId, ++id, 'Runtime.getHeapUsage')).usedSize;
    // "index.worker-<hash>.js" -> "index.worker".
    const name = /([\w-]+\.worker)/u.exec(worker.url)?.[1] ?? worker.url;
    if (used !== undefined) out[name] = (out[name] ?? 0) + used / 2 ** 20;
  }
  await cdp.send('Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false });
  return out;
}

/** One CDP call to a worker attached through the page's session (not flattened), and its result. */
async function workerCall(cdp: Cdp, sessionId: string, id: number, method: string): Promise<{ usedSize?: number }> {
  const answer = new Promise<{ usedSize?: number }>((resolve) => {
    const listener = (event: { sessionId: string; message: string }) => {
      const message = JSON.parse(event.message) as { id?: number; result?: { usedSize?: number } };
      if (event.sessionId !== sessionId || message.id !== id) return;
      cdp.off('Target.receivedMessageFromTarget', listener);
      resolve(message.result ?? {});
    };
    cdp.on('Target.receivedMessageFromTarget', listener);
  });
  await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) });
  return answer;
}

/** VmRSS of the largest renderer process of this profile (found by its --user-data-dir in /proc), MB; null off Linux. */
async function largestRendererRss(profile: string): Promise<number | null> {
  const pids = await readdir('/proc').catch(() => [] as string[]);
  let largest: number | null = null;
  for (const pid of pids.filter((name) => /^\d+$/u.test(name))) {
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    // A zygote-forked renderer rewrites its title: one string with spaces, not NUL-separated arguments.
    const args = command.split(/[\0 ]/u);
    if (!args.includes('--type=renderer') || !args.includes(`--user-data-dir=${profile}`)) continue;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
    const kb = status ? /^VmRSS:\s+(\d+) kB/mu.exec(status)?.[1] : undefined;
    if (kb !== undefined) largest = Math.max(largest ?? 0, Number(kb) / 1024);
  }
  return largest;
}

/** The first sample at or past a third of the bytes: its time left against the real rest. */
export function thirdWay(samples: readonly ProgressSample[], totalMs: number): AppImportRun['third'] {
  const at = samples.find((s) => s.bytesTotal > 0 && s.bytesRead >= s.bytesTotal / 3);
  if (!at) return null;
  const actualMs = totalMs - at.t;
  return { etaMs: at.etaMs, actualMs, error: at.etaMs === null ? null : Math.abs(at.etaMs - actualMs) / actualMs };
}

type Cdp = Awaited<ReturnType<BrowserContext['newCDPSession']>>;

async function startTrace(cdp: Cdp): Promise<void> {
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: {
      includedCategories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8.execute',
        'disabled-by-default-v8.cpu_profiler',
        'blink',
        'IndexedDB',
      ],
    },
  });
}

async function stopTrace(cdp: Cdp, path: string): Promise<void> {
  const done = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream!)));
  await cdp.send('Tracing.end');
  const stream = await done;
  const out = createWriteStream(path);
  for (;;) {
    const { data, eof, base64Encoded } = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
    out.write(base64Encoded ? Buffer.from(data, 'base64') : data);
    if (eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  await new Promise<void>((resolve) => out.end(() => resolve()));
}
