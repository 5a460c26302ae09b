/**
 * The cleaning sweep's benchmark work, shared by Node (tests/bench/curate.bench.ts) and Chromium
 * (tests/bench/curate.browser.ts), so both time the same code over the same generated notes:
 * `generateCurateCorpus` (seed 7, 5% planted near-duplicates, 1% planted contradictions), then the
 * job's scan with its default confirmation (`sweepInputFrom(notes, now, {}, defaultSweepScan())`)
 * and the planner (`planSweep`). Only the scan and the plan are timed; the notes are in memory.
 */
import { sweepInputFrom } from '../../src/lib/core/curate/sweep-input';
import { planSweep, proposalType } from '../../src/lib/core/curate/sweep';
import { defaultSweepScan } from '../../src/lib/services/curation/sweep-job';
import { generateCurateCorpus, pairScores, type CurateCorpus } from './curate-corpus';

export const CURATE_SEED = 7;
export const CURATE_NOW = Date.UTC(2026, 10, 1);

export const curateLabel = (size: number): string => (size % 1000 === 0 ? `${size / 1000}k` : String(size));

export function curateCorpus(size: number): CurateCorpus {
  return generateCurateCorpus({ size, dupShare: 0.05, contradictionShare: 0.01, seed: CURATE_SEED, now: CURATE_NOW });
}

/**
 * FNV-1a (32-bit) over every note's id, text, status and dates, in order: equal in Node and in
 * Chromium only if both generated the same notes.
 */
export function corpusChecksum(corpus: CurateCorpus): string {
  let hash = 0x811c9dc5;
  const add = (text: string) => {
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
  };
  for (const note of corpus.notes) add(`${note.id}\u0000${note.text}\u0000${note.status}\u0000${note.createdAt}\u0000${note.keptAt}\n`);
  return `${corpus.notes.length}:${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

export interface SweepRunResult {
  seconds: number;
  dupRecall: number;
  dupPrecision: number;
  contradictionRecall: number;
  contradictionPrecision: number;
  plantedDuplicatePairs: number;
  proposedDuplicatePairs: number;
  confirmedSimilarPairs: number;
  pairLevelRecall: number;
  pairLevelPrecision: number;
  confirmedContradictions: number;
  proposedSupersessions: number;
  proposals: Record<string, number>;
}

/** One timed sweep (scan + plan) over the corpus's notes, scored against what was planted. */
export function runSweep(corpus: CurateCorpus, now: () => number): SweepRunResult {
  const t = now();
  const input = sweepInputFrom(corpus.notes, CURATE_NOW, {}, defaultSweepScan());
  const proposals = planSweep(input);
  const seconds = (now() - t) / 1000;

  const collapses = proposals.flatMap((p) => (p.type === 'collapse-duplicates' ? [[p.canonicalId, ...p.duplicateIds]] : []));
  const dup = pairScores(collapses, corpus.duplicateGroups);
  const pairLevel = pairScores(
    input.similarPairs.map((p) => [p.a, p.b]),
    corpus.duplicateGroups,
  );

  const planted = new Set(corpus.contradictions.map(([older, newer]) => `${newer}|${older}`));
  const supersessions = proposals.flatMap((p) => (p.type === 'supersede' ? [`${p.newerId}|${p.olderId}`] : []));
  const found = supersessions.filter((k) => planted.has(k)).length;

  const byType: Record<string, number> = {};
  for (const p of proposals) byType[proposalType(p)] = (byType[proposalType(p)] ?? 0) + 1;
  return {
    seconds,
    dupRecall: dup.recall,
    dupPrecision: dup.precision,
    contradictionRecall: planted.size ? found / planted.size : 1,
    contradictionPrecision: supersessions.length ? found / supersessions.length : 1,
    plantedDuplicatePairs: dup.truePairs,
    proposedDuplicatePairs: dup.predictedPairs,
    confirmedSimilarPairs: input.similarPairs.length,
    pairLevelRecall: Number(pairLevel.recall.toFixed(4)),
    pairLevelPrecision: Number(pairLevel.precision.toFixed(4)),
    confirmedContradictions: input.contradictions?.length ?? 0,
    proposedSupersessions: supersessions.length,
    proposals: byType,
  };
}

export const SWEEP_SETTINGS = {
  lsh: '24 bands x 5 rows',
  confirmation: 'term similarity >= 0.8, else lexical cosine >= 0.85 (pairs sharing half their terms)',
  seed: CURATE_SEED,
};
