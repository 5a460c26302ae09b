/**
 * Hybrid retrieval: for every variant, BM25 top-N and vector top-N; all lists fused by reciprocal
 * rank. Summing RRF over every list of every variant is the same as fusing per variant and then
 * merging the variants by summed score, so duplicates across variants merge into one candidate
 * that keeps its best BM25 rank, its best vector rank and its highest exact cosine similarity.
 */
import type { Embedder } from '../api/embedder';
import type { CandidateRecord, CandidateStore, HintSearcher, LexicalHit, LexicalSearcher, VectorHit, VectorSearcher } from './ports';
import { fuse, RRF_K, type RankedList } from './rrf';
import type { Candidate, QueryVariant, RetrievalSignals, VariantKind } from './types';

export interface RetrieveDeps {
  lexical: LexicalSearcher;
  vector: VectorSearcher;
  embedder: Pick<Embedder, 'id' | 'kind' | 'embed'>;
  store: CandidateStore;
  /** The hints' index; absent: no hint lists. */
  hints?: HintSearcher;
}

export type RetrievalLists = 'hybrid' | 'bm25' | 'vector';

export interface RetrieveOptions {
  /** Hits asked of each searcher per variant. */
  perListK?: number;
  /** How many fused candidates are read from the store (the rest are never materialized). */
  limit?: number;
  rrfK?: number;
  lists?: RetrievalLists;
  /** Defaults to searcherWeightsFor(embedder.kind). */
  weights?: SearcherWeights;
  /**
   * Weight of each variant's hint list against its BM25 list (0, the default: hints are not searched;
   * recall.ts passes HINT_WEIGHT when asked for hints). A variant's hint and BM25 lists are fused by max: a hint lifts its parent to the
   * better of the two, never adds to it.
   */
  hintWeight?: number;
  /**
   * Further ranked lists fused with the searchers': the entity graph's walk, and the triples about the
   * prompt's entities (`lines`: each id's triple, as the trace shows it).
   */
  extra?: readonly ExtraList[];
  signal?: AbortSignal;
}

/** Weight of each searcher's lists in the fusion, times the variant's own weight. */
export interface SearcherWeights {
  bm25: number;
  vector: number;
}

/**
 * Standard RRF weighs every list 1. A lexical embedder (hashed words, bigrams, char 3-grams) mostly
 * repeats what BM25 already ranks, only worse, and at full weight it pulled the fused ranking down.
 * Measured on LoCoMo dev, hybrid mode, BM25 and LexicalEmbedder of the index-core branch (0351f18):
 *   vector weight   0      0.05   0.1    0.2    0.5    1.0   | BM25 alone
 *   recall@10       0.629  0.624  0.617  0.591  0.551  0.529 | 0.631
 *   recall@1000 tk  0.712  0.715  0.717  0.713  0.699  0.680 | 0.712
 * 0.1 keeps what only the embedder finds (misspellings via 3-grams) in the tail at a small cost at
 * the head. A neural embedder ranks by meaning, which BM25 cannot: full weight until measured.
 */
export const LEXICAL_VECTOR_WEIGHT = 0.1;

export function searcherWeightsFor(embedderKind: 'lexical' | 'neural'): SearcherWeights {
  return embedderKind === 'neural' ? { bm25: 1, vector: 1 } : { bm25: 1, vector: LEXICAL_VECTOR_WEIGHT };
}

/**
 * A list weighted below this is not searched at all. Its first place adds w / 61 to a candidate's
 * fused score, less than one rank step at the head of a weight-1 list (1/61 - 1/62 = 0.00026 for
 * w < 0.016), so it can only shuffle the tail; at 100k chunks each skipped HNSW search saves a few
 * milliseconds. Deterministic subset variants' vector lists (0.05 x 0.1 with a lexical embedder)
 * fall below it; on LoCoMo dev skipping them changed no recall figure (workers/recall/README.md).
 */
export const MIN_LIST_WEIGHT = 0.01;

/** Weight of a variant's hint list, as a share of its BM25 list's, when hints are asked for (measured: services/recall/README.md). */
export const HINT_WEIGHT = 1;

/**
 * A hint list weighted below this is not searched. On the hint weight curve (services/recall/README.md,
 * "Hints") a weight of 0.5 changed no package on either set: a hint's first place then counts less
 * than BM25's 60th. So the subset variants (0.05) and a model's variants (0.5) search no hints; nor
 * does the authority variant (the prompt with its framing words), which changed no figure on either
 * set next to the concept variant (the unframed prompt). A recall searches the hint index once: at
 * 300k chunks each search costs several milliseconds.
 */
export const MIN_HINT_LIST_WEIGHT = 0.75;

export const DEFAULT_PER_LIST_K = 30;
export const DEFAULT_RETRIEVE_LIMIT = 30;

interface VariantHits {
  variant: QueryVariant;
  vector: Float32Array | null;
  bm25: LexicalHit[];
  knn: VectorHit[];
  hints: { id: string; terms: readonly string[] }[];
}

/**
 * The variants' lists. The keyword lists are read first and handed to `onLexical` before the vector
 * search runs, so a caller can start reading their records while the scan computes (retrieve).
 */
async function searchVariants(
  variants: readonly QueryVariant[],
  deps: RetrieveDeps,
  lists: RetrievalLists,
  k: number,
  w: SearcherWeights,
  hintWeight: number,
  signal?: AbortSignal,
  onLexical?: (hits: readonly VariantHits[]) => void,
): Promise<VariantHits[]> {
  const useVector = lists !== 'bm25';
  const searched = (variant: QueryVariant, weight: number) => (variant.weight ?? 1) * weight >= MIN_LIST_WEIGHT;
  // A model embeds in its own worker: the keyword searches run meanwhile.
  const embedded = useVector
    ? deps.embedder.embed(
        variants.map((v) => v.text),
        signal ? { signal } : undefined,
      )
    : Promise.resolve([]);
  // Awaited after the keyword searches; a failure (or an abort) meanwhile is not an unhandled rejection.
  embedded.catch(() => undefined);
  const lexical = (variant: QueryVariant) => lists !== 'vector' && searched(variant, w.bm25);
  const hints = deps.hints;
  const [bm25Lists, hintLists] = await Promise.all([
    Promise.all(variants.map((variant) => (lexical(variant) ? deps.lexical.search(variant.text, k) : Promise.resolve([])))),
    Promise.all(
      variants.map((variant) =>
        hints && lexical(variant) && variant.kind !== 'authority' && (variant.weight ?? 1) * w.bm25 * hintWeight >= MIN_HINT_LIST_WEIGHT
          ? hints.search(variant.text, k)
          : Promise.resolve([]),
      ),
    ),
  ]);
  const hits = variants.map((variant, i): VariantHits => ({ variant, vector: null, bm25: bm25Lists[i]!, knn: [], hints: hintLists[i]! }));
  onLexical?.(hits);
  const vectors = await embedded;
  // The variants' vector searches go together (one pass over an exact scan's rows).
  const wanted = variants.flatMap((variant, i) => (vectors[i] && searched(variant, w.vector) ? [i] : []));
  const knn = await (deps.vector.searchMany
    ? deps.vector.searchMany(
        wanted.map((i) => vectors[i]!),
        k,
      )
    : Promise.all(wanted.map((i) => deps.vector.search(vectors[i]!, k))));
  const knnOf = new Map<number, VectorHit[]>();
  wanted.forEach((i, n) => knnOf.set(i, knn[n] ?? []));
  return hits.map((h, i) => ({ ...h, vector: vectors[i] ?? null, knn: knnOf.get(i) ?? [] }));
}

function emptySignals(): RetrievalSignals {
  return { bm25Rank: null, bm25Score: null, vectorRank: null, vectorSimilarity: null, rrf: 0, variants: [] };
}

function collectSignals(hits: readonly VariantHits[], ids: ReadonlySet<string>): Map<string, RetrievalSignals> {
  const signals = new Map<string, RetrievalSignals>();
  const get = (id: string) => signals.get(id) ?? signals.set(id, emptySignals()).get(id)!;
  const mark = (s: RetrievalSignals, kind: VariantKind) => {
    if (!s.variants.includes(kind)) s.variants.push(kind);
  };
  for (const { variant, bm25, knn, hints } of hits) {
    hints.forEach((hit, index) => {
      if (!ids.has(hit.id)) return;
      const s = get(hit.id);
      if (!s.hint || index + 1 < s.hint.rank) s.hint = { rank: index + 1, terms: hit.terms };
      mark(s, variant.kind);
    });
    bm25.forEach((hit, index) => {
      if (!ids.has(hit.id)) return;
      const s = get(hit.id);
      if (s.bm25Rank === null || index + 1 < s.bm25Rank) {
        s.bm25Rank = index + 1;
        s.bm25Score = hit.score;
      }
      mark(s, variant.kind);
    });
    knn.forEach((hit, index) => {
      if (!ids.has(hit.id)) return;
      const s = get(hit.id);
      if (s.vectorRank === null || index + 1 < s.vectorRank) s.vectorRank = index + 1;
      s.vectorSimilarity = Math.max(s.vectorSimilarity ?? -1, hit.similarity);
      mark(s, variant.kind);
    });
  }
  return signals;
}

/** Highest exact cosine of each candidate to any variant, including candidates BM25 alone found. */
async function maxSimilarity(hits: readonly VariantHits[], ids: readonly string[], vector: VectorSearcher): Promise<Map<string, number>> {
  const best = new Map<string, number>();
  const perVariant = await Promise.all(hits.map((h) => (h.vector ? vector.similarity(h.vector, ids) : Promise.resolve(new Map()))));
  for (const sims of perVariant) {
    for (const [id, sim] of sims as Map<string, number>) best.set(id, Math.max(best.get(id) ?? -1, sim));
  }
  return best;
}

export interface Retrieval {
  /** Materialized candidates, best fused score first. */
  candidates: Candidate[];
  /** Fused ids beyond `limit`, or missing from the store: how many were left unread. */
  unread: number;
}

export type ExtraList = RankedList & ({ kind: 'graph' } | { kind: 'triples'; lines: readonly string[] });

/** Every searcher's list of every variant, weighted, plus the extra lists when the lists are hybrid. */
function rankedLists(
  hits: readonly VariantHits[],
  w: SearcherWeights,
  hintWeight: number,
  lists: RetrievalLists,
  extra: readonly ExtraList[],
): RankedList[] {
  const ranked: RankedList[] = hits.flatMap((h, i) => [
    { ids: h.bm25.map((x) => x.id), weight: (h.variant.weight ?? 1) * w.bm25, group: `lexical-${i}` },
    { ids: h.hints.map((x) => x.id), weight: (h.variant.weight ?? 1) * w.bm25 * hintWeight, group: `lexical-${i}` },
    { ids: h.knn.map((x) => x.id), weight: (h.variant.weight ?? 1) * w.vector },
  ]);
  if (lists === 'hybrid') ranked.push(...extra);
  return ranked.filter((l) => l.ids.length > 0 && (l.weight ?? 1) > 0);
}

/**
 * The candidates a vector search is unlikely to change: the fused top of every list but the vector
 * ones, read from the store while the vector search runs (in a browser the reads are served by
 * IndexedDB's own process, beside the scan). What the vector lists then add is read afterwards; a
 * record read early but no longer in the top is dropped. The same records as one read after fusion.
 */
interface EarlyRead {
  ids: ReadonlySet<string>;
  records: Promise<CandidateRecord[]>;
}

export async function retrieve(variants: readonly QueryVariant[], deps: RetrieveDeps, options: RetrieveOptions = {}): Promise<Retrieval> {
  const lists = options.lists ?? 'hybrid';
  const w = options.weights ?? searcherWeightsFor(deps.embedder.kind);
  const hintWeight = options.hintWeight ?? 0;
  const extra = options.extra ?? [];
  const rrfK = options.rrfK ?? RRF_K;
  const limit = options.limit ?? DEFAULT_RETRIEVE_LIMIT;
  // Set by the callback below (a holder, so the type checker sees the assignment from the closure).
  const early: { read: EarlyRead | null } = { read: null };
  const readEarly = (lexicalHits: readonly VariantHits[]) => {
    if (lists !== 'hybrid') return;
    const ids = fuse(rankedLists(lexicalHits, w, hintWeight, lists, extra), rrfK)
      .slice(0, limit)
      .map((f) => f.id);
    if (ids.length === 0) return;
    const records = deps.store.get(ids);
    // Awaited below, after the vector search; a failure meanwhile is not an unhandled rejection.
    records.catch(() => undefined);
    early.read = { ids: new Set(ids), records };
  };
  const hits = await searchVariants(
    variants,
    deps,
    lists,
    options.perListK ?? DEFAULT_PER_LIST_K,
    w,
    hintWeight,
    options.signal,
    readEarly,
  );
  const fused = fuse(rankedLists(hits, w, hintWeight, lists, extra), rrfK);
  const graphRanks = new Map(extra.flatMap((l) => (l.kind === 'graph' ? l.ids.map((id, i) => [id, i + 1] as const) : [])));
  const triples = new Map(
    extra.flatMap((l) => (l.kind === 'triples' ? l.ids.map((id, i) => [id, { rank: i + 1, line: l.lines[i] ?? '' }] as const) : [])),
  );
  const top = fused.slice(0, limit);
  const ids = top.map((f) => f.id);
  const read = early.read;
  const late = read ? ids.filter((id) => !read.ids.has(id)) : ids;
  const [earlyRecords, lateRecords, sims] = await Promise.all([
    read ? read.records : Promise.resolve([]),
    late.length > 0 ? deps.store.get(late) : Promise.resolve([]),
    lists === 'bm25' ? Promise.resolve(new Map<string, number>()) : maxSimilarity(hits, ids, deps.vector),
  ]);
  const signals = collectSignals(hits, new Set(ids));
  const byId = new Map([...earlyRecords, ...lateRecords].map((r) => [r.id, r]));
  const candidates: Candidate[] = [];
  for (const { id, score } of top) {
    const record = byId.get(id);
    if (!record) continue;
    const s = signals.get(id) ?? emptySignals();
    const sim = sims.get(id);
    const graphRank = graphRanks.get(id);
    const triple = triples.get(id);
    candidates.push({
      record,
      signals: {
        ...s,
        rrf: score,
        vectorSimilarity: sim ?? s.vectorSimilarity,
        ...(graphRank !== undefined ? { graphRank } : {}),
        ...(triple ? { triple } : {}),
      },
    });
  }
  return { candidates, unread: fused.length - candidates.length };
}
