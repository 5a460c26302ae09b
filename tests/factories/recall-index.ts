/**
 * The core read path's ports over the product's own index pieces, for tests that hand-write their
 * candidate records: the app's BM25 (`Bm25Index`), the lexical embedder, and exact search over the
 * vectors (`FlatVectors`, what the index's exact mode and health check use). Only the store is a
 * map: the records are the test's. Tests of the whole path (chunking, the BM25 recipe, HNSW, the
 * store) go through the index service instead (index-harness.ts).
 */
import { FlatVectors } from '../../src/lib/core/index/exact';
import { Bm25Index } from '../../src/lib/core/index/bm25';
import { dot } from '../../src/lib/core/index/vector-math';
import type { CandidateRecord, CandidateStore, VectorSearcher } from '../../src/lib/core/recall/ports';
import type { RetrieveDeps } from '../../src/lib/core/recall/retrieve';
import { LexicalEmbedder } from '../../src/lib/models/lexical-embedder';

export class MapStore implements CandidateStore {
  private readonly byId: Map<string, CandidateRecord>;
  constructor(records: readonly CandidateRecord[]) {
    this.byId = new Map(records.map((r) => [r.id, r]));
  }
  async get(ids: readonly string[]): Promise<CandidateRecord[]> {
    return ids.flatMap((id) => this.byId.get(id) ?? []);
  }
}

export async function recordsIndex(records: readonly CandidateRecord[]): Promise<RetrieveDeps> {
  const embedder = new LexicalEmbedder();
  const bm25 = new Bm25Index();
  for (const r of records) bm25.add(r.id, r.text);
  const vectors = await embedder.embed(records.map((r) => r.text));
  const flat = new FlatVectors(embedder.dims, Math.max(1, records.length));
  const byId = new Map<string, Float32Array>();
  records.forEach((r, i) => {
    flat.set(i, vectors[i]!);
    byId.set(r.id, vectors[i]!);
  });
  const vector: VectorSearcher = {
    search: async (query, k) => flat.search(query, k).map((hit) => ({ id: records[hit.label]!.id, similarity: hit.similarity })),
    similarity: async (query, ids) => new Map(ids.flatMap((id) => (byId.has(id) ? [[id, dot(query, byId.get(id)!)] as const] : []))),
  };
  return {
    lexical: {
      search: async (query, k) => bm25.search(query, k).map((h) => ({ id: h.id, score: h.score })),
      explain: async (query, ids) => bm25.explain(query, ids),
    },
    vector,
    embedder,
    store: new MapStore(records),
  };
}
