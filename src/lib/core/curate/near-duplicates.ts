import type { NoteRecord } from '../records';
import { detectConflict, type Conflict } from './contradiction';
import { MinHashLsh, type LshOptions } from './minhash';
import { NEAR_DUPLICATE_THRESHOLD } from './similarity';
import { contentWordSet } from '../extract/words';

/**
 * Near-duplicates and contradictions over all notes, sub-quadratically: MinHash LSH over each
 * note's stemmed content words (the terms `termSimilarity` compares) proposes candidate pairs; each
 * is confirmed pairwise. A pair is a contradiction when the rules find one (negation, antonym,
 * changed value; a swapped term between two decisions or two constraints), else a duplicate when
 * its term similarity reaches the calibrated threshold. A contradiction is never a duplicate.
 *
 * Why LSH over terms and not the vector index's neighbours: measured on a set with known
 * duplicates (docs/CURATE.md), LSH candidates found as many true duplicates as the 5 or 10 nearest
 * vector neighbours (exact search), at a small fraction of the cost, with no index (candidates in
 * the Inbox are not indexed), off the index worker. Vectors help in the confirmation instead: a
 * pair the terms miss by a typo is confirmed by the lexical embedder's cosine (`vectors`).
 */
export type PairVerdict = { kind: 'duplicate'; similarity: number } | { kind: 'contradiction'; conflict: Conflict; similarity: number };

export type ScanNote = Pick<NoteRecord, 'id' | 'text' | 'category'>;

const SLOT_CATEGORIES = new Set(['Decisions', 'Constraints']);
/**
 * Below this overlap (shared / smaller) no contradiction rule fires: negation needs 0.6, a changed
 * value 0.5, an antonym (smaller - 1) / 2 shared besides the pair, 0.4 at five terms.
 */
const MIN_OVERLAP = 0.4;

/** |a ∩ b| of two sorted term lists. */
function sharedCount(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return shared;
}

function jaccardOf(shared: number, a: number, b: number): number {
  return a + b === 0 ? 0 : shared / (a + b - shared);
}

export interface ScanOptions {
  lsh?: Partial<LshOptions>;
  /** Term similarity at or above which a pair is a duplicate (the calibrated one by default). */
  termThreshold?: number;
  /**
   * A second confirmation by vectors (the lexical embedder's): a pair whose terms fall short but
   * whose cosine reaches `threshold` is a duplicate too. It catches typos and two-word edits the
   * terms miss (docs/CURATE.md); only pairs sharing half their terms are embedded.
   */
  vectors?: { of: (text: string) => Float32Array; threshold: number };
}

/** Term similarity below which a pair is not embedded for the vector check. */
const MIN_TERMS_FOR_VECTORS = 0.5;

export class NearDuplicateScan {
  private readonly lsh: MinHashLsh;
  private readonly notes: ScanNote[] = [];
  private readonly terms: string[][] = [];
  private readonly threshold: number;
  private readonly vectorCache = new Map<number, Float32Array>();

  constructor(private readonly options: ScanOptions = {}) {
    this.lsh = new MinHashLsh(options.lsh ?? {});
    this.threshold = options.termThreshold ?? NEAR_DUPLICATE_THRESHOLD.terms;
  }

  private vector(index: number): Float32Array {
    let v = this.vectorCache.get(index);
    if (!v) {
      v = this.options.vectors!.of(this.notes[index]!.text);
      this.vectorCache.set(index, v);
    }
    return v;
  }

  private cosine(i: number, j: number): number {
    const a = this.vector(i);
    const b = this.vector(j);
    let dot = 0;
    for (let d = 0; d < a.length; d++) dot += a[d]! * b[d]!;
    return dot;
  }

  get size(): number {
    return this.notes.length;
  }

  /** Adds a note; returns its index (what pairs name). */
  add(note: ScanNote): number {
    const index = this.notes.length;
    const terms = [...contentWordSet(note.text)].sort();
    this.notes.push({ id: note.id, text: note.text, category: note.category });
    this.terms.push(terms);
    this.lsh.add(index, terms);
    return index;
  }

  note(index: number): ScanNote {
    return this.notes[index]!;
  }

  termsOf(index: number): readonly string[] {
    return this.terms[index]!;
  }

  candidatePairs(): Generator<[number, number]> {
    return this.lsh.candidatePairs();
  }

  similarity(i: number, j: number): number {
    const [a, b] = [this.terms[i]!, this.terms[j]!];
    return jaccardOf(sharedCount(a, b), a.length, b.length);
  }

  /**
   * What a candidate pair is: a contradiction, a duplicate, or neither (null). Pairs sharing less
   * than 40% of the smaller note's terms are neither (no contradiction rule fires below that),
   * so the rules run only on pairs that could be one: most LSH candidates are chance pairs.
   */
  confirm(i: number, j: number): PairVerdict | null {
    const a = this.notes[i]!;
    const b = this.notes[j]!;
    const [ta, tb] = [this.terms[i]!, this.terms[j]!];
    const shared = sharedCount(ta, tb);
    const smaller = Math.min(ta.length, tb.length);
    if (smaller === 0 || shared / smaller < MIN_OVERLAP) return null;
    const similarity = jaccardOf(shared, ta.length, tb.length);
    const slotSwap = SLOT_CATEGORIES.has(a.category) && a.category === b.category;
    const conflict = detectConflict(a.text, b.text, { slotSwap });
    if (conflict) return { kind: 'contradiction', conflict, similarity };
    if (similarity >= this.threshold) return { kind: 'duplicate', similarity };
    const vectors = this.options.vectors;
    if (vectors && similarity >= MIN_TERMS_FOR_VECTORS) {
      const cosine = this.cosine(i, j);
      if (cosine >= vectors.threshold) return { kind: 'duplicate', similarity: cosine };
    }
    return null;
  }
}
