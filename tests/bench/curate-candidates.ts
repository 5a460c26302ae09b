/**
 * Which candidate method finds more true near-duplicates: MinHash LSH over content words, or the
 * vector index's nearest neighbours? Measured on a generated set with known duplicates
 * (curate-corpus.ts), both methods' candidates confirmed by the same pairwise rule, plus the
 * vector method with its own confirmation (cosine >= the lexical embedder's near-duplicate
 * threshold, what the extraction decision stage uses). Exact cosine search stands in for HNSW:
 * the best case for the vector method. The lexical embedder is the one this machine can run; a
 * neural one was not measured (no model weights here). Run: `npx tsx --import ./scripts/node-resolve.js
 * tests/bench/curate-candidates.ts [notes]`; the figures are in docs/CURATE.md.
 */
import '../../src/cli/node-env';
import { NearDuplicateScan } from '../../src/lib/core/curate/near-duplicates';
import { NEAR_DUPLICATE_THRESHOLD } from '../../src/lib/core/curate/similarity';
import { lexicalVector } from '../../src/lib/models/lexical-embedder';
import { generateCurateCorpus } from './curate-corpus';

const size = Number(process.argv[2] ?? 5000);
const hardShare = Number(process.argv[3] ?? 0.3);
const corpus = generateCurateCorpus({ size, dupShare: 0.05, contradictionShare: 0.01, seed: 11, now: Date.UTC(2026, 10, 1), hardShare });
console.log(`${size} notes, ${corpus.duplicateGroups.length} duplicate groups, hard rewordings ${hardShare}`);
const notes = corpus.notes;
const index = new Map(notes.map((n, i) => [n.id, i]));
const truth = new Set<string>();
for (const g of corpus.duplicateGroups) {
  for (let a = 0; a < g.length; a++) for (let b = a + 1; b < g.length; b++) truth.add(key(index.get(g[a]!)!, index.get(g[b]!)!));
}
function key(i: number, j: number): string {
  return i < j ? `${i}:${j}` : `${j}:${i}`;
}

const scan = new NearDuplicateScan();
for (const n of notes) scan.add(n);

function score(name: string, candidates: Iterable<[number, number]>, confirm: (i: number, j: number) => boolean, ms: number): void {
  let examined = 0;
  const found = new Set<string>();
  for (const [i, j] of candidates) {
    examined++;
    if (confirm(i, j)) found.add(key(i, j));
  }
  const hit = [...found].filter((k) => truth.has(k)).length;
  console.log(
    `${name}: candidates ${examined}, confirmed ${found.size}, true pairs found ${hit}/${truth.size} (recall ${(hit / truth.size).toFixed(3)}), precision ${(found.size ? hit / found.size : 1).toFixed(3)}, candidate time ${ms.toFixed(0)} ms`,
  );
}

const termRule = (i: number, j: number) => scan.confirm(i, j)?.kind === 'duplicate';

let t = performance.now();
const lshPairs = [...scan.candidatePairs()];
score('LSH (24 x 5) + term rule', lshPairs, termRule, performance.now() - t);

t = performance.now();
const vectors = notes.map((n) => lexicalVector(n.text));
const dims = vectors[0]!.length;
const neighbours: number[][] = [];
for (let i = 0; i < vectors.length; i++) {
  const sims: [number, number][] = [];
  const q = vectors[i]!;
  for (let j = 0; j < vectors.length; j++) {
    if (j === i) continue;
    const v = vectors[j]!;
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += q[d]! * v[d]!;
    sims.push([dot, j]);
  }
  sims.sort((a, b) => b[0] - a[0]);
  neighbours.push(sims.slice(0, 10).map(([, j]) => j));
}
const knnMs = performance.now() - t;
const cosine = (i: number, j: number) => {
  let dot = 0;
  for (let d = 0; d < dims; d++) dot += vectors[i]![d]! * vectors[j]![d]!;
  return dot;
};
for (const k of [1, 5, 10]) {
  const pairs = function* (): Generator<[number, number]> {
    for (let i = 0; i < neighbours.length; i++) for (const j of neighbours[i]!.slice(0, k)) yield [i, j];
  };
  score(`vector top-${k} (lexical, exact) + term rule`, pairs(), termRule, knnMs);
  score(
    `vector top-${k} (lexical, exact) + cosine >= ${NEAR_DUPLICATE_THRESHOLD.lexical}`,
    pairs(),
    (i, j) => cosine(i, j) >= NEAR_DUPLICATE_THRESHOLD.lexical && scan.confirm(i, j)?.kind !== 'contradiction',
    knnMs,
  );
}
const both = function* (): Generator<[number, number]> {
  yield* lshPairs;
  for (let i = 0; i < neighbours.length; i++) for (const j of neighbours[i]!.slice(0, 5)) yield [i, j];
};
score('LSH + vector top-5, term rule', both(), termRule, knnMs);
score(
  `LSH, term rule or cosine >= ${NEAR_DUPLICATE_THRESHOLD.lexical}`,
  lshPairs,
  (i, j) => termRule(i, j) || (cosine(i, j) >= NEAR_DUPLICATE_THRESHOLD.lexical && scan.confirm(i, j)?.kind !== 'contradiction'),
  0,
);
