/**
 * The cleaning sweep at 100k notes (issue 17), in Node and in headless Chromium. Over a generated
 * vault of atomic notes (tests/bench/curate-corpus.ts: 5% planted near-duplicates, 1% planted
 * contradictions, seed 7) it runs what the sweep job runs after reading the notes: the candidate
 * scan with the job's confirmation (`defaultSweepScan`: MinHash LSH 24 x 5 over content words,
 * confirmed by term similarity, then the lexical embedder's cosine) through `sweepInputFrom`, and
 * the planner (`planSweep`). The work is shared (tests/bench/curate-work.ts). Figures:
 * - curate.sweep.100k.seconds: scan + plan, from the notes in memory to the proposals (not the
 *   store reads, the promotion signals or the proposal writes of the job; target <= 60 s);
 * - curate.sweep.100k.dup_recall / dup_precision: every pair inside a planted duplicate group
 *   against every pair inside a proposed collapse (canonical + duplicates), targets >= 0.95;
 * - curate.sweep.100k.contradiction_recall / contradiction_precision: planted [older, newer]
 *   pairs against the proposed supersessions;
 * - curate.sweep.100k.chromium.{seconds,dup_recall,dup_precision,contradiction_recall,
 *   contradiction_precision}: the same in headless Chromium (tests/bench/curate.browser.ts), on the
 *   benchmark page's main thread, over the same notes generated in the page (their checksum must
 *   equal Node's, or the module fails). Not timed there either: generating the notes; no IndexedDB.
 * BENCH_CURATE_SIZE (default 100000) steers the size; the figure names keep the 100k label only
 * at 100k. `--only curate.sweep.100k.chromium` runs the Chromium figures alone.
 */
import '../../src/cli/node-env';
import { isEntry, now, runStandalone } from '../factories/corpus-bench';
import type { ChromiumSweepRun } from './curate.browser';
import { corpusChecksum, curateCorpus, curateLabel, runSweep, SWEEP_SETTINGS, type SweepRunResult } from './curate-work';
import type { BenchModule, FigureSamples } from './harness';

const SIZE = Number(process.env.BENCH_CURATE_SIZE ?? 100_000);
const SCORES = ['seconds', 'dup_recall', 'dup_precision', 'contradiction_recall', 'contradiction_precision'] as const;

function figures(prefix: string, runs: SweepRunResult[], meta: Record<string, unknown>): FigureSamples[] {
  const values: Record<(typeof SCORES)[number], number[]> = {
    seconds: runs.map((r) => r.seconds),
    dup_recall: runs.map((r) => r.dupRecall),
    dup_precision: runs.map((r) => r.dupPrecision),
    contradiction_recall: runs.map((r) => r.contradictionRecall),
    contradiction_precision: runs.map((r) => r.contradictionPrecision),
  };
  return SCORES.map((score) => ({ name: `${prefix}.${score}`, unit: score === 'seconds' ? 's' : 'ratio', values: values[score], meta }));
}

function runMeta(last: SweepRunResult): Record<string, unknown> {
  return {
    plantedDuplicatePairs: last.plantedDuplicatePairs,
    proposedDuplicatePairs: last.proposedDuplicatePairs,
    confirmedSimilarPairs: last.confirmedSimilarPairs,
    pairLevelRecall: last.pairLevelRecall,
    pairLevelPrecision: last.pairLevelPrecision,
    confirmedContradictions: last.confirmedContradictions,
    proposedSupersessions: last.proposedSupersessions,
    proposals: last.proposals,
  };
}

function describe(run: SweepRunResult): string {
  return `${run.seconds.toFixed(1)} s; duplicates recall ${run.dupRecall.toFixed(4)} precision ${run.dupPrecision.toFixed(4)}; contradictions recall ${run.contradictionRecall.toFixed(4)} precision ${run.contradictionPrecision.toFixed(4)}; proposals ${JSON.stringify(run.proposals)}`;
}

export const bench: BenchModule = {
  name: 'curate',
  async run(ctx) {
    const prefix = `curate.sweep.${curateLabel(SIZE)}`;
    const wantsNode = SCORES.some((score) => ctx.wants(`${prefix}.${score}`));
    const wantsChromium = ctx.wants(`${prefix}.chromium`);
    if (!wantsNode && !wantsChromium) return [];
    const corpus = curateCorpus(SIZE);
    const checksum = corpusChecksum(corpus);
    const corpusMeta = {
      notes: corpus.notes.length,
      plantedDuplicateGroups: corpus.duplicateGroups.length,
      plantedContradictions: corpus.contradictions.length,
      corpusChecksum: checksum,
      ...SWEEP_SETTINGS,
    };
    ctx.log(
      `${corpus.notes.length} notes, ${corpus.duplicateGroups.length} duplicate groups, ${corpus.contradictions.length} contradictions planted (checksum ${checksum})`,
    );
    const out: FigureSamples[] = [];

    if (wantsNode) {
      const runs: SweepRunResult[] = [];
      for (let run = 0; run < ctx.runs; run++) {
        runs.push(runSweep(corpus, now));
        ctx.log(`node run ${run + 1}: ${describe(runs[run]!)}`);
      }
      out.push(...figures(prefix, runs, { ...corpusMeta, ...runMeta(runs.at(-1)!), node: process.versions.node }));
    }

    if (wantsChromium) {
      const browser = await ctx.browser();
      const runs: ChromiumSweepRun[] = [];
      try {
        for (let run = 0; run < ctx.runs; run++) {
          const result = await browser.run<ChromiumSweepRun>('curateSweep', { size: SIZE });
          if (result.checksum !== checksum)
            throw new Error(`Chromium generated other notes than Node (checksum ${result.checksum}, Node ${checksum}).`);
          runs.push(result);
          ctx.log(`chromium run ${run + 1}: ${describe(result)}; heap after ${result.heapMbAfter?.toFixed(0) ?? '?'} MiB`);
        }
      } finally {
        await browser.run('curateSweepDone');
      }
      const last = runs.at(-1)!;
      out.push(
        ...figures(`${prefix}.chromium`, runs, {
          ...corpusMeta,
          ...runMeta(last),
          where: "the benchmark page's main thread, notes in memory (generation and IndexedDB not timed)",
          heapMbAfter: last.heapMbAfter === null ? null : Math.round(last.heapMbAfter),
        }),
      );
    }
    return out;
  },
};

if (isEntry(import.meta.url)) await runStandalone(bench);
