/**
 * The LSH banding, chosen by measurement: for several bands x rows, how many candidate pairs the
 * scan yields over the generated 100k corpus (the same one as `curate.sweep.100k.*`, seed 7) and how
 * many planted duplicate pairs and contradictions survive to confirmation (the job's confirmation,
 * `defaultSweepScan`), with the theoretical candidate probability at Jaccard 0.8, 0.67 and 0.25.
 * Run: `npx tsx --import ./scripts/node-resolve.js tests/bench/curate-lsh.ts [notes]`; figures in docs/CURATE.md.
 */
import '../../src/cli/node-env';
import { candidateProbability } from '../../src/lib/core/curate/minhash';
import { NearDuplicateScan } from '../../src/lib/core/curate/near-duplicates';
import { defaultSweepScan } from '../../src/lib/services/curation/sweep-job';
import { generateCurateCorpus } from './curate-corpus';

const size = Number(process.argv[2] ?? 100_000);
const corpus = generateCurateCorpus({ size, dupShare: 0.05, contradictionShare: 0.01, seed: 7, now: Date.UTC(2026, 10, 1) });
const truePairs = new Set<string>();
for (const g of corpus.duplicateGroups)
  for (let a = 0; a < g.length; a++) for (let b = a + 1; b < g.length; b++) truePairs.add([g[a], g[b]].sort().join('|'));
const contradictions = new Set(corpus.contradictions.map((p) => [...p].sort().join('|')));
for (const [bands, rows] of [
  [16, 4],
  [24, 4],
  [20, 5],
  [24, 5],
  [30, 5],
  [24, 6],
] as const) {
  const t = performance.now();
  const scan = new NearDuplicateScan({ ...defaultSweepScan(), lsh: { bands, rows } });
  for (const n of corpus.notes) scan.add(n);
  let candidates = 0;
  let dup = 0;
  let contra = 0;
  for (const [i, j] of scan.candidatePairs()) {
    candidates++;
    const verdict = scan.confirm(i, j);
    const key = [scan.note(i).id, scan.note(j).id].sort().join('|');
    if (verdict?.kind === 'duplicate' && truePairs.has(key)) dup++;
    if (verdict?.kind === 'contradiction' && contradictions.has(key)) contra++;
  }
  const p = (j: number) => candidateProbability(j, { bands, rows }).toFixed(4);
  console.log(
    `${bands} x ${rows}: P(J=0.8) ${p(0.8)}, P(J=0.67) ${p(0.67)}, P(J=0.25) ${p(0.25)}; candidates ${candidates}; true duplicate pairs confirmed ${dup}/${truePairs.size}; planted contradictions confirmed ${contra}/${contradictions.size}; ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
}
