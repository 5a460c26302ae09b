import { describe, expect, it } from 'vitest';
import { candidateProbability, MinHashLsh, DEFAULT_LSH } from '../../../src/lib/core/curate/minhash';
import { NearDuplicateScan } from '../../../src/lib/core/curate/near-duplicates';
import { NEAR_DUPLICATE_THRESHOLD, termSimilarity } from '../../../src/lib/core/curate/similarity';
import { contentWordSet } from '../../../src/lib/core/extract/words';
import type { NoteRecord } from '../../../src/lib/core/records';
import { lexicalVector } from '../../../src/lib/models/lexical-embedder';
import { seededRng } from '../../factories/rng';
import { note } from '../../factories/records';
import { DUPLICATE_PAIRS } from './duplicate-pairs';

/** Two random word sets of sizes giving exactly Jaccard `j` (shared / union). */
function pairWithJaccard(rng: () => number, shared: number, onlyEach: number, tag: number): [string[], string[]] {
  const word = () => `w${Math.floor(rng() * 1e9).toString(36)}`;
  const common = Array.from({ length: shared }, word);
  const a = [...common, ...Array.from({ length: onlyEach }, word)];
  const b = [...common, ...Array.from({ length: onlyEach }, word)];
  return [a.map((w) => `${w}${tag}`), b.map((w) => `${w}${tag}`)];
}

describe('MinHash LSH', () => {
  it('states the probability of becoming a candidate for a Jaccard similarity (the banding curve)', () => {
    const { bands, rows } = DEFAULT_LSH;
    expect(candidateProbability(0.8)).toBeCloseTo(1 - Math.pow(1 - Math.pow(0.8, rows), bands), 12);
    expect(candidateProbability(0.8)).toBeGreaterThan(0.9999);
    expect(candidateProbability(0.7)).toBeGreaterThan(0.98);
    expect(candidateProbability(0.25)).toBeLessThan(0.03);
  });

  it('finds pairs at the near-duplicate threshold (0.8) and above, and rarely pairs far below it', () => {
    const rng = seededRng(17);
    const lsh = new MinHashLsh();
    const near: [number, number][] = [];
    const far: [number, number][] = [];
    let id = 0;
    for (let t = 0; t < 300; t++) {
      // Jaccard 8 / 10 = 0.8: 8 shared, one word each of their own.
      const [a, b] = pairWithJaccard(rng, 8, 1, t);
      near.push([id, id + 1]);
      lsh.add(id++, a);
      lsh.add(id++, b);
      // Jaccard 2 / 14 ≈ 0.14.
      const [c, d] = pairWithJaccard(rng, 2, 6, t + 10_000);
      far.push([id, id + 1]);
      lsh.add(id++, c);
      lsh.add(id++, d);
    }
    const found = new Set([...lsh.candidatePairs()].map(([i, j]) => `${i}:${j}`));
    const nearFound = near.filter(([i, j]) => found.has(`${i}:${j}`)).length;
    const farFound = far.filter(([i, j]) => found.has(`${i}:${j}`)).length;
    expect(nearFound / near.length).toBeGreaterThanOrEqual(0.99);
    expect(farFound / far.length).toBeLessThan(0.05);
  });

  it('lists each pair once, lower index first', () => {
    const lsh = new MinHashLsh();
    for (let i = 0; i < 5; i++) lsh.add(i, ['same', 'words', 'every', 'time']);
    const pairs = [...lsh.candidatePairs()];
    expect(pairs.length).toBe(10);
    expect(new Set(pairs.map((p) => p.join(':'))).size).toBe(10);
    expect(pairs.every(([i, j]) => i < j)).toBe(true);
  });
});

function notesFrom(texts: readonly string[]): NoteRecord[] {
  return texts.map((text, i) => note({ id: `n${i}`, text, status: 'kept', contentHash: `h${i}`, keptAt: i }));
}

function bruteForce(notes: readonly NoteRecord[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < notes.length; i++) {
    for (let j = i + 1; j < notes.length; j++) {
      if (termSimilarity(notes[i]!.text, notes[j]!.text) >= NEAR_DUPLICATE_THRESHOLD.terms) out.add(`${notes[i]!.id}:${notes[j]!.id}`);
    }
  }
  return out;
}

describe('near-duplicate scan (LSH candidates confirmed pairwise)', () => {
  it('confirms the labelled duplicates the term threshold calls duplicates, and no labelled non-duplicate', () => {
    for (const pair of DUPLICATE_PAIRS) {
      const scan = new NearDuplicateScan();
      const [a, b] = notesFrom([pair.a, pair.b]);
      scan.add(a!);
      scan.add(b!);
      const verdict = scan.confirm(0, 1);
      const byTerms = termSimilarity(pair.a, pair.b) >= NEAR_DUPLICATE_THRESHOLD.terms;
      expect(verdict?.kind === 'duplicate', `${pair.a} / ${pair.b}`).toBe(byTerms);
      if (!pair.duplicate) expect(verdict?.kind).not.toBe('duplicate');
    }
  });

  it('calls a negated statement a contradiction, never a duplicate', () => {
    const scan = new NearDuplicateScan();
    const [a, b] = notesFrom(['The vault file is encrypted by default.', 'The vault file is not encrypted by default.']);
    scan.add(a!);
    scan.add(b!);
    expect(termSimilarity(a!.text, b!.text)).toBe(1);
    expect(scan.confirm(0, 1)).toMatchObject({ kind: 'contradiction', conflict: { kind: 'negation' } });
  });

  it('finds the same duplicate pairs as comparing every pair, on a corpus with planted near-duplicates', () => {
    const rng = seededRng(3);
    const nouns =
      'maple garden path light schema index vault export budget trip train studio cat diet fountain price invoice report controller schedule database'.split(
        ' ',
      );
    const verbs = 'prunes lights stores moves checks plans books feeds waters sends reads builds'.split(' ');
    const pick = (list: string[]) => list[Math.floor(rng() * list.length)]!;
    const texts: string[] = [];
    for (let i = 0; i < 400; i++) {
      const words = [pick(nouns), pick(verbs), pick(nouns), pick(nouns), `item${i}`, `place${Math.floor(rng() * 50)}`];
      texts.push(`The ${words.join(' ')}.`);
      if (i % 10 === 0) texts.push(`${words.reverse().join(' ')} indeed`);
    }
    const notes = notesFrom(texts);
    const scan = new NearDuplicateScan();
    for (const n of notes) scan.add(n);
    const found = new Set<string>();
    for (const [i, j] of scan.candidatePairs()) {
      if (scan.confirm(i, j)?.kind === 'duplicate') found.add(`${notes[i]!.id}:${notes[j]!.id}`);
    }
    const truth = bruteForce(notes);
    expect(truth.size).toBeGreaterThanOrEqual(40);
    expect([...truth].filter((p) => found.has(p)).length / truth.size).toBeGreaterThanOrEqual(0.99);
    expect([...found].every((p) => truth.has(p))).toBe(true);
  });

  it('reads the content words the term similarity reads', () => {
    const scan = new NearDuplicateScan();
    const [a] = notesFrom(['Japanese maples are pruned in late winter.']);
    scan.add(a!);
    expect(new Set(scan.termsOf(0))).toEqual(contentWordSet(a!.text));
  });

  it('confirms a duplicate with a typo by the lexical embedder when asked, and never a hard negative', () => {
    const texts = [
      'The garden irrigation controller waters the lawn every morning.',
      'The garden irigation controller waters the lawn every morning.',
      'Caroline adopted a rescue dog.',
      'Caroline adopted a rescue cat.',
    ];
    const vectors = { of: (text: string) => lexicalVector(text), threshold: NEAR_DUPLICATE_THRESHOLD.lexical };
    const without = new NearDuplicateScan();
    const withVectors = new NearDuplicateScan({ vectors });
    for (const n of notesFrom(texts)) {
      without.add(n);
      withVectors.add(n);
    }
    expect(without.confirm(0, 1)).toBeNull();
    expect(withVectors.confirm(0, 1)).toMatchObject({ kind: 'duplicate' });
    expect(withVectors.confirm(2, 3)?.kind).not.toBe('duplicate');
    for (const pair of DUPLICATE_PAIRS.filter((p) => !p.duplicate)) {
      const scan = new NearDuplicateScan({ vectors });
      for (const n of notesFrom([pair.a, pair.b])) scan.add(n);
      expect(scan.confirm(0, 1)?.kind, `${pair.a} / ${pair.b}`).not.toBe('duplicate');
    }
  });
});
