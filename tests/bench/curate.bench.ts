/**
 * The cleaning sweep at 100k notes (issue 17), in Node. Over a generated vault of atomic notes
 * (tests/bench/curate-corpus.ts: 5% planted near-duplicates, 1% planted contradictions, seed 7)
 * it runs what the sweep job runs after reading the notes: the candidate scan with the job's
 * confirmation (`defaultSweepScan`: MinHash LSH 24 x 5 over content words, confirmed by term
 * similarity, then the lexical embedder's cosine) through `sweepInputFrom`, and the planner
 * (`planSweep`). Figures:
 * - curate.sweep.100k.seconds: scan + plan, from the notes in memory to the proposals (not the
 *   store reads, the promotion signals or the proposal writes of the job; target <= 60 s);
 * - curate.sweep.100k.dup_recall / dup_precision: every pair inside a planted duplicate group
 *   against every pair inside a proposed collapse (canonical + duplicates), targets >= 0.95;
 * - curate.sweep.100k.contradiction_recall / contradiction_precision: planted [older, newer]
 *   pairs against the proposed supersessions.
 * BENCH_CURATE_SIZE (default 100000) steers the size; the figure names keep the 100k label only
 * at 100k.
 */
import '../../src/cli/node-env';
import { sweepInputFrom } from '../../src/lib/core/curate/sweep-input';
import { planSweep, proposalType } from '../../src/lib/core/curate/sweep';
import { defaultSweepScan } from '../../src/lib/services/curation/sweep-job';
import { isEntry, now, runStandalone } from '../factories/corpus-bench';
import { generateCurateCorpus, pairScores } from './curate-corpus';
import type { BenchModule, FigureSamples } from './harness';

const SIZE = Number(process.env.BENCH_CURATE_SIZE ?? 100_000);
const label = (size: number) => (size % 1000 === 0 ? `${size / 1000}k` : String(size));
const NOW = Date.UTC(2026, 10, 1);

export const bench: BenchModule = {
  name: 'curate',
  async run(ctx) {
    const prefix = `curate.sweep.${label(SIZE)}`;
    if (!ctx.wants(prefix)) return [];
    const corpus = generateCurateCorpus({ size: SIZE, dupShare: 0.05, contradictionShare: 0.01, seed: 7, now: NOW });
    ctx.log(
      `${corpus.notes.length} notes, ${corpus.duplicateGroups.length} duplicate groups, ${corpus.contradictions.length} contradictions planted`,
    );
    const seconds: number[] = [];
    const dupRecall: number[] = [];
    const dupPrecision: number[] = [];
    const contraRecall: number[] = [];
    const contraPrecision: number[] = [];
    let meta: Record<string, unknown> = {};
    for (let run = 0; run < ctx.runs; run++) {
      const t = now();
      const input = sweepInputFrom(corpus.notes, NOW, {}, defaultSweepScan());
      const proposals = planSweep(input);
      const elapsed = (now() - t) / 1000;
      seconds.push(elapsed);

      const collapses = proposals.flatMap((p) => (p.type === 'collapse-duplicates' ? [[p.canonicalId, ...p.duplicateIds]] : []));
      const dup = pairScores(collapses, corpus.duplicateGroups);
      dupRecall.push(dup.recall);
      dupPrecision.push(dup.precision);
      const pairLevel = pairScores(
        input.similarPairs.map((p) => [p.a, p.b]),
        corpus.duplicateGroups,
      );

      const planted = new Set(corpus.contradictions.map(([older, newer]) => `${newer}|${older}`));
      const supersessions = proposals.flatMap((p) => (p.type === 'supersede' ? [`${p.newerId}|${p.olderId}`] : []));
      const found = supersessions.filter((k) => planted.has(k)).length;
      contraRecall.push(planted.size ? found / planted.size : 1);
      contraPrecision.push(supersessions.length ? found / supersessions.length : 1);

      const byType: Record<string, number> = {};
      for (const p of proposals) byType[proposalType(p)] = (byType[proposalType(p)] ?? 0) + 1;
      meta = {
        notes: corpus.notes.length,
        plantedDuplicateGroups: corpus.duplicateGroups.length,
        plantedDuplicatePairs: dup.truePairs,
        plantedContradictions: corpus.contradictions.length,
        proposedDuplicatePairs: dup.predictedPairs,
        confirmedSimilarPairs: input.similarPairs.length,
        pairLevelRecall: Number(pairLevel.recall.toFixed(4)),
        pairLevelPrecision: Number(pairLevel.precision.toFixed(4)),
        confirmedContradictions: input.contradictions?.length ?? 0,
        proposedSupersessions: supersessions.length,
        proposals: byType,
        lsh: '24 bands x 5 rows',
        confirmation: 'term similarity >= 0.8, else lexical cosine >= 0.85 (pairs sharing half their terms)',
        seed: 7,
        node: process.versions.node,
      };
      ctx.log(
        `run ${run + 1}: ${elapsed.toFixed(1)} s; duplicates recall ${dup.recall.toFixed(4)} precision ${dup.precision.toFixed(4)}; contradictions recall ${contraRecall.at(-1)!.toFixed(4)} precision ${contraPrecision.at(-1)!.toFixed(4)}; proposals ${JSON.stringify(byType)}`,
      );
    }
    const figures: FigureSamples[] = [
      { name: `${prefix}.seconds`, unit: 's', values: seconds, meta },
      { name: `${prefix}.dup_recall`, unit: 'ratio', values: dupRecall, meta },
      { name: `${prefix}.dup_precision`, unit: 'ratio', values: dupPrecision, meta },
      { name: `${prefix}.contradiction_recall`, unit: 'ratio', values: contraRecall, meta },
      { name: `${prefix}.contradiction_precision`, unit: 'ratio', values: contraPrecision, meta },
    ];
    return figures;
  },
};

if (isEntry(import.meta.url)) await runStandalone(bench);
