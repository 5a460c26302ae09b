/**
 * Helpers shared by the index benchmarks: a standalone runner (so a module runs with `npx tsx`
 * before the project's bench runner exists), timing and memory probes.
 */
import { writeFileSync } from 'node:fs';
import type { HnswlibModule } from 'hnswlib-wasm';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BenchContext, type BenchModule, type FigureSamples, percentile, summarize } from '../bench/harness';

export function now(): number {
  return performance.now();
}

/** Heap plus array buffers after a full GC when the process runs with --expose-gc. */
export function memoryBytes(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

export const hasGc = (): boolean => typeof (globalThis as { gc?: unknown }).gc === 'function';

export function latencies(samples: readonly number[]): { p50: number; p95: number } {
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

/**
 * Runs one module outside the bench runner: `npx tsx --expose-gc tests/bench/x.bench.ts` with
 * BENCH_RUNS, BENCH_ONLY (comma-separated figure prefixes) and BENCH_OUT (a JSON file) from the env.
 */
export async function runStandalone(module: BenchModule): Promise<void> {
  const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
  const ctx: BenchContext = {
    runs: Number(process.env.BENCH_RUNS ?? 3),
    dataDir: resolve(process.cwd(), '../shared/data'),
    log: (message) => console.error(`[${module.name}] ${message}`),
    browser: () => Promise.reject(new Error('no browser in the standalone runner')),
    wants: (prefix) => only.length === 0 || only.some((o) => prefix.startsWith(o) || o.startsWith(prefix)),
    asked: (prefix) => only.some((o) => prefix.startsWith(o) || o.startsWith(prefix)),
  };
  const started = now();
  const figures: FigureSamples[] = await module.run(ctx);
  const out = Object.fromEntries(
    figures.map((f) => [f.name, { unit: f.unit, ...summarize(f.values), runs: f.values.length, meta: f.meta }]),
  );
  const json = JSON.stringify({ module: module.name, seconds: (now() - started) / 1000, figures: out }, null, 2);
  if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, json);
  console.log(json);
}

/** True when this file is the process entry (`tsx file.ts`), false when imported by a runner. */
export function isEntry(importMetaUrl: string): boolean {
  const entry = process.argv[1];
  return !!entry && pathToFileURL(resolve(entry)).href === importMetaUrl;
}

/** Per-query median of three timings: a shared 2-core machine preempts single runs. */
export function timeQueries(queries: readonly Float32Array[], run: (q: Float32Array) => void): number[] {
  return queries.map((q) => {
    const samples = [0, 1, 2].map(() => {
      const t = now();
      run(q);
      return now() - t;
    });
    return samples.sort((a, b) => a - b)[1]!;
  });
}

/** hnswlib-wasm in Node: the package has only a `module` field, so its file is imported by path (node-env.ts gives it the importScripts shim it probes). */
export async function loadHnswlibInNode(): Promise<HnswlibModule> {
  await import('../../src/cli/node-env');
  const mod = (await import('hnswlib-wasm/dist/hnswlib.js')) as { loadHnswlib: () => Promise<HnswlibModule> };
  return mod.loadHnswlib();
}
