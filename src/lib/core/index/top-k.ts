/**
 * Top-k selection with a fixed-size binary min-heap over typed arrays: O(n log k), no sort of the
 * whole candidate set. Ties are broken by the lower index, so results are deterministic.
 */

export interface Scored {
  index: number;
  score: number;
}

export class TopK {
  private readonly scores: Float64Array;
  private readonly indexes: Int32Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.scores = new Float64Array(Math.max(1, k));
    this.indexes = new Int32Array(Math.max(1, k));
  }

  /** True when (a, ia) ranks below (b, ib). */
  private static worse(a: number, ia: number, b: number, ib: number): boolean {
    return a < b || (a === b && ia > ib);
  }

  push(index: number, score: number): void {
    if (this.k <= 0) return;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!TopK.worse(score, index, this.scores[parent]!, this.indexes[parent]!)) break;
        this.scores[i] = this.scores[parent]!;
        this.indexes[i] = this.indexes[parent]!;
        i = parent;
      }
      this.scores[i] = score;
      this.indexes[i] = index;
      return;
    }
    if (!TopK.worse(this.scores[0]!, this.indexes[0]!, score, index)) return;
    this.siftDown(index, score);
  }

  private siftDown(index: number, score: number): void {
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.size) break;
      const right = left + 1;
      let child = left;
      if (right < this.size && TopK.worse(this.scores[right]!, this.indexes[right]!, this.scores[left]!, this.indexes[left]!))
        child = right;
      if (!TopK.worse(this.scores[child]!, this.indexes[child]!, score, index)) break;
      this.scores[i] = this.scores[child]!;
      this.indexes[i] = this.indexes[child]!;
      i = child;
    }
    this.scores[i] = score;
    this.indexes[i] = index;
  }

  /** The lowest kept score once k are kept; -Infinity before. */
  worst(): number {
    return this.size < this.k || this.k <= 0 ? Number.NEGATIVE_INFINITY : this.scores[0]!;
  }

  /** Best first. */
  result(): Scored[] {
    const out: Scored[] = [];
    for (let i = 0; i < this.size; i++) out.push({ index: this.indexes[i]!, score: this.scores[i]! });
    return out.sort((a, b) => b.score - a.score || a.index - b.index);
  }
}
