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
 * duplicates (docs/CURATE.md), LSH found as many true duplicates as k-nearest vector neighbours and
 * more at the edges, needs no index (candidates in the Inbox are not indexed), and runs off the index
 * worker.
 */
export type PairVerdict = { kind: 'duplicate'; similarity: number } | { kind: 'contradiction'; conflict: Conflict; similarity: number };

export type ScanNote = Pick<NoteRecord, 'id' | 'text' | 'category'>;

const SLOT_CATEGORIES = new Set(['Decisions', 'Constraints']);

/** |a ∩ b| / |a ∪ b| of two sorted term lists. */
function sortedJaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 0;
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
  return shared / (a.length + b.length - shared);
}

export class NearDuplicateScan {
  private readonly lsh: MinHashLsh;
  private readonly notes: ScanNote[] = [];
  private readonly terms: string[][] = [];

  constructor(
    lsh: Partial<LshOptions> = {},
    private readonly threshold: number = NEAR_DUPLICATE_THRESHOLD.terms,
  ) {
    this.lsh = new MinHashLsh(lsh);
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
    return sortedJaccard(this.terms[i]!, this.terms[j]!);
  }

  /** What a candidate pair is: a contradiction, a duplicate, or neither (null). */
  confirm(i: number, j: number): PairVerdict | null {
    const a = this.notes[i]!;
    const b = this.notes[j]!;
    const similarity = this.similarity(i, j);
    const slotSwap = SLOT_CATEGORIES.has(a.category) && a.category === b.category;
    const conflict = detectConflict(a.text, b.text, { slotSwap });
    if (conflict) return { kind: 'contradiction', conflict, similarity };
    if (similarity >= this.threshold) return { kind: 'duplicate', similarity };
    return null;
  }
}
