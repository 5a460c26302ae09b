/**
 * A BM25+ inverted index over typed arrays, built for a vault in a browser worker: incremental add
 * and remove, top-k queries, and a compact state for persistence (see bm25-codec.ts).
 *
 * Why our own and not a library (tests/bench/index-bm25.bench.ts, one run, 100k LoCoMo/MemoryBank
 * chunks of ~35 words, the same analyzer for every library, a shared 2-core machine): this index
 * built in 2.7 s, held 17 MB and answered in 0.41 ms p50 / 5.7 ms p95; FlexSearch 4.1 s, 26 MB,
 * 9.1 / 19 ms (and it does not score by BM25); MiniSearch 7.3 s, 108 MB, 36 / 271 ms (it ranks
 * every match, it has no top-k); wink-bm25 7.4 s, 282 MB, 53 / 236 ms; Orama 9.9 s, 251 MB,
 * 148 ms / 2.8 s. Evidence recall@10 on LoCoMo: 0.427 here, 0.429 MiniSearch, 0.431 FlexSearch,
 * 0.406 wink, 0.297 Orama. Clearly faster and leaner at the same quality, so we keep our own.
 *
 * Layout: one growable Uint32Array of postings per term, each posting `doc << 8 | min(tf, 255)`
 * (so up to 16.7M documents), a Uint32Array of document lengths and a liveness byte per document.
 * Removal marks a document dead; its postings are dropped at the next compaction, which runs when
 * a quarter of the stored documents are dead. Like Lucene, document frequencies count dead
 * documents until then: scores drift slightly, results never include a removed document.
 */
import { analyze } from '../text/analyze';
import { GrowableUint32 } from './growable';
import { TopK } from './top-k';

export interface Bm25Options {
  k1: number;
  b: number;
  /** BM25+ lower bound (Lv & Zhai 2011): a match in a long document still earns delta * idf. 0 = classic BM25. */
  delta: number;
}

export interface Bm25Hit {
  id: string;
  score: number;
}

/** One distinct query term as this index knows it: how many documents hold it and its BM25 idf. */
export interface Bm25TermStat {
  term: string;
  /** Documents holding the term (or, for an unknown term read as a near one, holding that one). */
  df: number;
  /** BM25 idf; a term no document holds gets the idf of df 0, the highest there is. */
  idf: number;
  /**
   * For a term the index does not hold: the indexed term it was read as, when one shares a long
   * prefix with it (another form of the same word the stemmer left apart: "entrepreneuri" and
   * "entrepreneur", "musician" and "music"); see NEAR_PREFIX.
   */
  near?: string;
}

/**
 * An unknown term is read as the indexed term sharing its longest prefix when that prefix has at
 * least `min` characters and covers at least `share` of the unknown term (Porter stems
 * "entrepreneurial" and "entrepreneur", "mentorship" and "mentor" apart; a misspelling such as
 * "tennesee" keeps most of its prefix). Measured with the relevance stage (recall README).
 */
export const NEAR_PREFIX = { min: 5, share: 0.6 } as const;

/** Which query terms each named document holds (indices into `terms`), and the terms' statistics. */
export interface Bm25Explanation {
  documents: number;
  terms: Bm25TermStat[];
  matched: Map<string, number[]>;
}

/** Everything needed to rebuild an index: live documents only, postings in term order. */
export interface Bm25State {
  options: Bm25Options;
  ids: string[];
  lengths: Uint32Array;
  terms: string[];
  /** offsets[t]..offsets[t + 1] index `postings` for term t. */
  offsets: Uint32Array;
  postings: Uint32Array;
}

const TF_BITS = 8;
const TF_MAX = (1 << TF_BITS) - 1;
const MAX_DOCS = 2 ** (32 - TF_BITS);
/** k1, b: the textbook values; delta 1: the BM25+ paper's default (not tuned on our data). */
export const DEFAULT_BM25: Bm25Options = { k1: 1.2, b: 0.75, delta: 1 };

/** The k-th best score among the touched documents (partial scores: lower bounds of the final ones). */
function kthScore(scores: Float32Array, touched: GrowableUint32, k: number): number {
  const top = new TopK(k);
  const docs = touched.view();
  // A score below the k-th kept one cannot change it: most documents of a long list end here.
  let floor = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < docs.length; i++) {
    const score = scores[docs[i]!]!;
    if (score < floor) continue;
    top.push(docs[i]!, score);
    floor = top.worst();
  }
  return top.worst();
}

/** Index of `doc`'s posting in a list sorted by document, or -1. */
function findPosting(data: Uint32Array, length: number, doc: number): number {
  let lo = 0;
  let hi = length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = data[mid]! >>> TF_BITS;
    if (at === doc) return mid;
    if (at < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export class Bm25Index {
  readonly options: Bm25Options;
  private readonly analyzer: (text: string) => string[];
  private termIds = new Map<string, number>();
  private terms: string[] = [];
  private postings: GrowableUint32[] = [];
  private ids: string[] = [];
  private docOf = new Map<string, number>();
  private lengths = new GrowableUint32(1024);
  private live = new Uint8Array(1024);
  private liveCount = 0;
  private liveLength = 0;
  private scores = new Float32Array(0);

  constructor(options: Partial<Bm25Options> = {}, analyzer: (text: string) => string[] = analyze) {
    this.options = { ...DEFAULT_BM25, ...options };
    this.analyzer = analyzer;
  }

  /** Live documents. */
  get size(): number {
    return this.liveCount;
  }

  get termCount(): number {
    return this.terms.length;
  }

  has(id: string): boolean {
    return this.docOf.has(id);
  }

  /** Adds a document, replacing any document with the same id. */
  add(id: string, text: string): void {
    this.addTerms(id, this.analyzer(text));
  }

  addTerms(id: string, tokens: readonly string[]): void {
    if (this.docOf.has(id)) this.remove(id);
    const doc = this.ids.length;
    if (doc >= MAX_DOCS) throw new RangeError(`BM25 index holds at most ${MAX_DOCS} documents`);
    const counts = new Map<number, number>();
    for (const token of tokens) {
      let term = this.termIds.get(token);
      if (term === undefined) {
        term = this.terms.length;
        this.termIds.set(token, term);
        this.terms.push(token);
        this.postings.push(new GrowableUint32(2));
      }
      counts.set(term, (counts.get(term) ?? 0) + 1);
    }
    // doc * 256 + tf rather than a shift: doc may use all 24 high bits, beyond int32 arithmetic.
    for (const [term, tf] of counts) this.postings[term]!.push(doc * (TF_MAX + 1) + Math.min(tf, TF_MAX));
    this.ids.push(id);
    this.docOf.set(id, doc);
    this.lengths.push(tokens.length);
    if (doc >= this.live.length) {
      const next = new Uint8Array(this.live.length * 2);
      next.set(this.live);
      this.live = next;
    }
    this.live[doc] = 1;
    this.liveCount++;
    this.liveLength += tokens.length;
  }

  remove(id: string): boolean {
    const doc = this.docOf.get(id);
    if (doc === undefined) return false;
    this.docOf.delete(id);
    this.live[doc] = 0;
    this.liveCount--;
    this.liveLength -= this.lengths.data[doc]!;
    const dead = this.ids.length - this.liveCount;
    if (dead > 64 && dead * 4 > this.ids.length) this.compact();
    return true;
  }

  /**
   * Best `k` documents for the query, best first (ties: earlier added first). With `accept`, only
   * the documents it accepts are scored: the best `k` of those, not the best `k` then filtered.
   */
  search(query: string, k = 10, accept?: (id: string) => boolean): Bm25Hit[] {
    return this.searchTerms(this.analyzer(query), k, accept);
  }

  /**
   * Exact top-k with term-at-a-time pruning (the MaxScore bound): terms are scored from the
   * highest possible contribution (idf x (k1 + 1 + delta)) down; once the terms left could add
   * less than the k-th best score so far, no document they alone match can enter the top k, so
   * they are only looked up (binary search in their postings) for documents already scored. The
   * long postings of common words are then mostly skipped: at 300k chunks that is what keeps
   * p95 low (tests/bench/index-bm25.bench.ts). Results equal a full scan's. A document `accept`
   * refuses is never scored, so the bound and the top k are those of the accepted documents.
   */
  searchTerms(queryTerms: readonly string[], k = 10, accept?: (id: string) => boolean): Bm25Hit[] {
    if (this.liveCount === 0 || k <= 0) return [];
    const { k1, b, delta } = this.options;
    const stored = this.ids.length;
    if (this.scores.length < stored) this.scores = new Float32Array(Math.max(stored, this.scores.length * 2));
    const scores = this.scores;
    const lengths = this.lengths.data;
    const live = this.live;
    const avgdl = this.liveLength / this.liveCount || 1;
    const base = k1 * (1 - b);
    const perToken = (k1 * b) / avgdl;
    const terms: { list: GrowableUint32; idf: number; bound: number }[] = [];
    for (const token of new Set(queryTerms)) {
      const term = this.termIds.get(token);
      if (term === undefined) continue;
      const list = this.postings[term]!;
      const idf = Math.log(1 + (stored - list.length + 0.5) / (list.length + 0.5));
      terms.push({ list, idf, bound: idf * (k1 + 1 + delta) });
    }
    terms.sort((x, y) => y.bound - x.bound);
    let remaining = terms.reduce((sum, t) => sum + t.bound, 0);
    const touched = new GrowableUint32(256);
    let pruned = false;
    for (const { list, idf, bound } of terms) {
      if (!pruned && touched.length >= k && remaining < kthScore(scores, touched, k)) pruned = true;
      remaining -= bound;
      const data = list.data;
      const df = list.length;
      const weight = idf * (k1 + 1);
      const floor = idf * delta;
      const add = (doc: number, tf: number) => (scores[doc]! += (weight * tf) / (tf + base + perToken * lengths[doc]!) + floor);
      if (!pruned) {
        for (let i = 0; i < df; i++) {
          const posting = data[i]!;
          const doc = posting >>> TF_BITS;
          if (live[doc] === 0) continue;
          if (scores[doc] === 0) {
            // Refused documents stay at 0: the pruned passes below never score them either.
            if (accept && !accept(this.ids[doc]!)) continue;
            touched.push(doc);
          }
          add(doc, posting & TF_MAX);
        }
      } else if (touched.length * Math.log2(df + 1) < df) {
        for (const doc of touched.view()) {
          const at = findPosting(data, df, doc);
          if (at >= 0) add(doc, data[at]! & TF_MAX);
        }
      } else {
        for (let i = 0; i < df; i++) {
          const doc = data[i]! >>> TF_BITS;
          if (scores[doc] !== 0) add(doc, data[i]! & TF_MAX);
        }
      }
    }
    const top = new TopK(k);
    const touchedDocs = touched.view();
    for (const doc of touchedDocs) {
      top.push(doc, scores[doc]!);
      scores[doc] = 0;
    }
    return top.result().map((hit) => ({ id: this.ids[hit.index]!, score: hit.score }));
  }

  /**
   * The distinct terms of `query` with their document frequency and idf, and for each id (a live
   * document) which of them its text holds. A posting list is in document order, so each check is a
   * binary search: a few terms times the candidates of one query, microseconds.
   */
  explain(query: string, ids: readonly string[]): Bm25Explanation {
    const documents = this.liveCount;
    const read: (number | undefined)[] = [];
    const terms = [...new Set(this.analyzer(query))].map((term): Bm25TermStat => {
      let id = this.termIds.get(term);
      const near = id === undefined ? this.nearTerm(term) : undefined;
      if (near !== undefined) id = this.termIds.get(near);
      read.push(id);
      // Live documents only, like `documents`: a replaced or removed document's postings stay until
      // compaction, and counting them put df above the live count (a negative weight in term-coverage.ts).
      const df = id === undefined ? 0 : this.liveDf(id);
      return { term, df, idf: Math.log(1 + (documents - df + 0.5) / (df + 0.5)), ...(near !== undefined ? { near } : {}) };
    });
    const matched = new Map<string, number[]>();
    for (const id of ids) {
      const doc = this.docOf.get(id);
      if (doc === undefined) continue;
      const held: number[] = [];
      read.forEach((term, i) => {
        if (term !== undefined && this.holds(term, doc)) held.push(i);
      });
      matched.set(id, held);
    }
    return { documents, terms, matched };
  }

  /** Live documents holding the term. */
  private liveDf(term: number): number {
    const list = this.postings[term]!;
    if (this.ids.length === this.liveCount) return list.length;
    let n = 0;
    for (let i = 0; i < list.length; i++) if (this.live[list.data[i]! >>> TF_BITS] === 1) n++;
    return n;
  }

  private sorted: { terms: string[]; count: number } | null = null;

  /** The indexed term sharing the longest prefix with `term` (NEAR_PREFIX), if any. */
  private nearTerm(term: string): string | undefined {
    if (this.sorted?.count !== this.terms.length) this.sorted = { terms: [...this.terms].sort(), count: this.terms.length };
    const sorted = this.sorted.terms;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < term) lo = mid + 1;
      else hi = mid;
    }
    const common = (other: string | undefined) => {
      if (other === undefined) return 0;
      let n = 0;
      while (n < term.length && n < other.length && term[n] === other[n]) n++;
      return n;
    };
    const [a, b] = [sorted[lo - 1], sorted[lo]];
    const best = common(a) >= common(b) ? a : b;
    const n = common(best);
    return n >= NEAR_PREFIX.min && n >= NEAR_PREFIX.share * term.length ? best : undefined;
  }

  private holds(term: number, doc: number): boolean {
    const list = this.postings[term]!;
    const data = list.data;
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = data[mid]! >>> TF_BITS;
      if (at === doc) return true;
      if (at < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** Drops dead documents and empty terms; document and term numbers are reassigned. */
  compact(): void {
    this.load(this.exportState());
  }

  exportState(): Bm25State {
    const remap = new Int32Array(this.ids.length).fill(-1);
    const ids: string[] = [];
    const lengths = new Uint32Array(this.liveCount);
    for (let doc = 0; doc < this.ids.length; doc++) {
      if (this.live[doc] === 0) continue;
      remap[doc] = ids.length;
      lengths[ids.length] = this.lengths.data[doc]!;
      ids.push(this.ids[doc]!);
    }
    const terms: string[] = [];
    const offsets: number[] = [0];
    const out = new GrowableUint32(1024);
    this.postings.forEach((list, term) => {
      const data = list.data;
      for (let i = 0; i < list.length; i++) {
        const to = remap[data[i]! >>> TF_BITS]!;
        if (to >= 0) out.push(to * (TF_MAX + 1) + (data[i]! & TF_MAX));
      }
      if (out.length > offsets[offsets.length - 1]!) {
        terms.push(this.terms[term]!);
        offsets.push(out.length);
      }
    });
    return { options: { ...this.options }, ids, lengths, terms, offsets: Uint32Array.from(offsets), postings: out.view().slice() };
  }

  static fromState(state: Bm25State, analyzer: (text: string) => string[] = analyze): Bm25Index {
    const index = new Bm25Index(state.options, analyzer);
    index.load(state);
    return index;
  }

  private load(state: Bm25State): void {
    const n = state.ids.length;
    this.sorted = null;
    this.ids = [...state.ids];
    this.docOf = new Map(this.ids.map((id, doc) => [id, doc]));
    this.lengths = new GrowableUint32(Math.max(1024, n));
    this.lengths.data.set(state.lengths);
    this.lengths.length = n;
    this.live = new Uint8Array(Math.max(1024, n)).fill(1, 0, n);
    this.liveCount = n;
    this.liveLength = state.lengths.reduce((sum, len) => sum + len, 0);
    this.terms = [...state.terms];
    this.termIds = new Map(this.terms.map((t, i) => [t, i]));
    this.postings = this.terms.map((_, t) => {
      const slice = state.postings.subarray(state.offsets[t]!, state.offsets[t + 1]!);
      const list = new GrowableUint32(Math.max(2, slice.length));
      list.data.set(slice);
      list.length = slice.length;
      return list;
    });
  }
}
