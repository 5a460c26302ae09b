import type { CurateCorpus } from './curate-corpus';
import { corpusChecksum, curateCorpus, runSweep, type SweepRunResult } from './curate-work';
import { heapMb } from './page-heap';

/**
 * The cleaning sweep in Chromium (called by tests/bench/curate.bench.ts through the benchmark
 * page): the page generates the same notes as Node (same generator, seed and planting; the
 * checksum lets the runner compare) and runs the same timed scan + plan on its main thread over
 * the notes in memory. Generating the notes is not timed; no IndexedDB is involved.
 */
export interface ChromiumSweepRun extends SweepRunResult {
  checksum: string;
  duplicateGroups: number;
  contradictions: number;
  /** performance.memory's used heap right after the run, MiB (null where the page lacks it). */
  heapMbAfter: number | null;
}

/** The generated notes of the last size asked for, kept between runs (generation is not timed). */
let cached: { size: number; corpus: CurateCorpus; checksum: string } | null = null;

function curateSweep(args: unknown): Promise<ChromiumSweepRun> {
  const { size } = args as { size: number };
  if (cached?.size !== size) {
    cached = null;
    const corpus = curateCorpus(size);
    cached = { size, corpus, checksum: corpusChecksum(corpus) };
  }
  const { corpus, checksum } = cached;
  const result = runSweep(corpus, () => performance.now());
  return Promise.resolve({
    ...result,
    checksum,
    duplicateGroups: corpus.duplicateGroups.length,
    contradictions: corpus.contradictions.length,
    heapMbAfter: heapMb(),
  });
}

/** Drops the cached notes once the runner is done with them. */
function curateSweepDone(): Promise<null> {
  cached = null;
  return Promise.resolve(null);
}

export const functions = { curateSweep, curateSweepDone };
