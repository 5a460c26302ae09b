/**
 * The benchmark harness contract. A benchmark module (`tests/bench/*.bench.ts`) exports `bench`;
 * `npm run bench -- --out FILE` runs every module and writes one JSON file of named figures
 * (median of the runs, with min and max) plus the machine it ran on. Benchmarks are not tests:
 * nothing here asserts a timing.
 */

/** One named figure: a dotted path (e.g. `store.bulkput_100k.node.rows_per_s`) and its samples. */
export interface FigureSamples {
  name: string;
  unit: string;
  values: number[];
  /** Free-form context: sizes, settings, library versions. */
  meta?: Record<string, unknown>;
}

export interface BrowserBench {
  /**
   * Runs the function registered under `name` in a headless Chromium page (see
   * tests/bench/browser/main.ts: modules named `*.browser.ts` register functions) and returns
   * its JSON result.
   */
  run<T = unknown>(name: string, args?: unknown): Promise<T>;
  /** A full garbage collection of the page's heap (DevTools protocol `HeapProfiler.collectGarbage`). */
  collectGarbage(): Promise<void>;
}

export interface BenchContext {
  /** How many times to repeat a measurement (the figure is the median). */
  runs: number;
  /** ../shared/data relative to the project root; a module that needs data it lacks says so and skips. */
  dataDir: string;
  log(message: string): void;
  /** A page in the system Chromium, started on first use. */
  browser(): Promise<BrowserBench>;
  /** Figure-name prefixes chosen with `--only`; a module may skip work whose figures are not wanted. */
  wants(figurePrefix: string): boolean;
  /** True only when `--only` names this prefix, a figure under it or a group holding it: for work too long for a full run. */
  asked(figurePrefix: string): boolean;
}

export interface BenchModule {
  name: string;
  run(ctx: BenchContext): Promise<FigureSamples[]>;
}

export interface FigureSummary {
  unit: string;
  median: number;
  min: number;
  max: number;
  runs: number;
  meta?: Record<string, unknown>;
}

export function summarize(values: readonly number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0] ?? NaN, max: sorted[sorted.length - 1] ?? NaN };
}

/** Percentile (0-100) of samples, nearest-rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/**
 * With BENCH_CPU_PROFILE=DIR, runs `work` under Node's sampling profiler (the inspector, 1 ms
 * interval) and writes `<name>-<time>.cpuprofile` to DIR (open it in Chrome's DevTools). Without
 * it, runs `work` alone. The Node counterpart of the browser benches' profiles (tests/bench/run.ts).
 */
export async function nodeProfiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (process.env.BENCH_HEAP_PROFILE) return nodeHeapProfiled(process.env.BENCH_HEAP_PROFILE, name, work);
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return work();
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 1000 });
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    await writeCpuProfile(dir, name, profile);
    session.disconnect();
  }
}

/**
 * With BENCH_HEAP_PROFILE=DIR (instead of BENCH_CPU_PROFILE), runs `work` under the inspector's
 * sampling heap profiler, every allocation counted whether or not a collection freed it since, and
 * writes `<name>-<time>.heapprofile` to DIR (DevTools' Memory tab opens it): where a run allocates.
 */
async function nodeHeapProfiled<T>(dir: string, name: string, work: () => Promise<T>): Promise<T> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 32 * 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  try {
    return await work();
  } finally {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    await writeProfile(dir, name, profile, 'heap');
    session.disconnect();
  }
}

/** Writes a sampling profile to DIR as `<name>-<time>.cpuprofile` and says where (Node and Chromium profiles alike). */
export async function writeCpuProfile(dir: string, name: string, profile: unknown): Promise<void> {
  await writeProfile(dir, name, profile, 'cpu');
}

/** Writes a CPU (`.cpuprofile`) or heap (`.heapprofile`) sampling profile to DIR and says where. */
async function writeProfile(dir: string, name: string, profile: unknown, kind: 'cpu' | 'heap'): Promise<void> {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${name}-${Date.now()}.${kind}profile`);
  await writeFile(file, JSON.stringify(profile));
  console.log(`  ${kind === 'cpu' ? 'CPU' : 'heap'} profile of ${name}: ${file}`);
}
