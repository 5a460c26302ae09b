/**
 * MinHash with locality-sensitive hashing (banding): near-duplicate candidates among n sets in
 * about n time instead of n²/2 comparisons. Each set gets `bands x rows` min-hashes; two sets whose
 * Jaccard similarity is J agree on one min-hash with probability J, on a whole band of `rows` with
 * J^rows, and so share at least one band, becoming a candidate pair, with probability
 * 1 - (1 - J^rows)^bands (`candidateProbability`). Candidates are then confirmed pairwise.
 *
 * Memory stays flat: no signature is kept, only one 32-bit key per band and set (typed arrays);
 * `candidatePairs` sorts each band's keys and reads runs of equal keys. A run longer than
 * `maxBucket` (hundreds of copies of one short text) yields a star, the first member with each
 * other, instead of every pair: duplicates still join through the first, the pairs stay linear.
 */
export interface LshOptions {
  bands: number;
  rows: number;
  seed: number;
  maxBucket: number;
}

/**
 * 24 bands of 5 rows (120 min-hashes): a pair at the near-duplicate threshold (Jaccard 0.8) is a
 * candidate with probability 0.99993, a contradiction that swapped one of seven terms (0.75) with
 * 0.997, one of five (0.67) with 0.97; a pair sharing a quarter of its terms with 0.02 (the curve:
 * `candidateProbability`). Four rows per band made three times as many chance candidates among
 * notes that share a template's words, for no true pair more (docs/CURATE.md).
 */
export const DEFAULT_LSH: LshOptions = { bands: 24, rows: 5, seed: 0x2545f491, maxBucket: 64 };

export function candidateProbability(jaccard: number, options: Pick<LshOptions, 'bands' | 'rows'> = DEFAULT_LSH): number {
  return 1 - Math.pow(1 - Math.pow(jaccard, options.rows), options.bands);
}

/** FNV-1a over UTF-16 code units: a 32-bit hash of a term. */
export function hashTerm(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Murmur3's finalizer: spreads the bits of a 32-bit value. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class MinHashLsh {
  readonly options: LshOptions;
  private readonly seeds: Uint32Array;
  private keys: Uint32Array[];
  private ids: Float64Array = new Float64Array(1024);
  private size = 0;
  private readonly mins: Uint32Array;
  private readonly hashes: number[] = [];

  constructor(options: Partial<LshOptions> = {}) {
    this.options = { ...DEFAULT_LSH, ...options };
    const k = this.options.bands * this.options.rows;
    this.seeds = new Uint32Array(k);
    let s = this.options.seed >>> 0;
    for (let i = 0; i < k; i++) {
      s = mix(s + 0x9e3779b9);
      this.seeds[i] = s;
    }
    this.mins = new Uint32Array(k);
    this.keys = Array.from({ length: this.options.bands }, () => new Uint32Array(1024));
  }

  get count(): number {
    return this.size;
  }

  /** Adds a set (its terms, repeats allowed) under `id`. An empty set can match nothing and is skipped. */
  add(id: number, terms: Iterable<string>): void {
    this.hashes.length = 0;
    for (const term of terms) this.hashes.push(hashTerm(term));
    if (this.hashes.length === 0) return;
    const { bands, rows } = this.options;
    const mins = this.mins;
    mins.fill(0xffffffff);
    for (const h of this.hashes) {
      for (let i = 0; i < mins.length; i++) {
        const v = mix(h ^ this.seeds[i]!);
        if (v < mins[i]!) mins[i] = v;
      }
    }
    this.grow();
    for (let b = 0; b < bands; b++) {
      let key = 0x9747b28c ^ b;
      for (let r = 0; r < rows; r++) key = mix(key ^ mins[b * rows + r]!);
      this.keys[b]![this.size] = key;
    }
    this.ids[this.size] = id;
    this.size++;
  }

  private grow(): void {
    if (this.size < this.ids.length) return;
    const next = this.ids.length * 2;
    const ids = new Float64Array(next);
    ids.set(this.ids);
    this.ids = ids;
    this.keys = this.keys.map((band) => {
      const grown = new Uint32Array(next);
      grown.set(band);
      return grown;
    });
  }

  /** Every candidate pair once, as [lower id, higher id]. At most 2^21 sets (positions share a float with the key). */
  *candidatePairs(): Generator<[number, number]> {
    const seen = new Set<number>();
    const order = new Float64Array(this.size);
    const pair = (x: number, y: number): [number, number] | null => {
      const a = this.ids[order[x]! % POSITIONS]!;
      const b = this.ids[order[y]! % POSITIONS]!;
      const [lo, hi] = a < b ? [a, b] : [b, a];
      const code = lo * PAIR_SPAN + hi;
      if (seen.has(code)) return null;
      seen.add(code);
      return [lo, hi];
    };
    for (const band of this.keys) {
      // key x 2^21 + position: sorting the numbers sorts by key (exact below 2^53).
      for (let i = 0; i < this.size; i++) order[i] = band[i]! * POSITIONS + i;
      order.sort();
      let start = 0;
      while (start < this.size) {
        const key = Math.floor(order[start]! / POSITIONS);
        let end = start + 1;
        while (end < this.size && Math.floor(order[end]! / POSITIONS) === key) end++;
        const members = end - start;
        if (members > this.options.maxBucket) {
          for (let y = start + 1; y < end; y++) {
            const p = pair(start, y);
            if (p) yield p;
          }
        } else if (members > 1) {
          for (let x = start; x < end; x++) {
            for (let y = x + 1; y < end; y++) {
              const p = pair(x, y);
              if (p) yield p;
            }
          }
        }
        start = end;
      }
    }
  }
}

const POSITIONS = 2 ** 21;
const PAIR_SPAN = 2 ** 26;
