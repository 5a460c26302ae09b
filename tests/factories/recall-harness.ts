/**
 * TEST DOUBLE. A small in-memory index for recall tests and for checking the evaluation plumbing
 * before the real index lands: a naive BM25 (k1 1.2, b 0.75) and a bag-of-words embedder (content
 * words hashed into 1,024 dimensions, L2-normalized) with an exact cosine scan. Numbers measured with
 * it describe this double, not the product's BM25 or lexical embedder.
 */
import type { Embedder } from '../../src/lib/core/api/embedder';
import type {
  CandidateRecord,
  CandidateStore,
  LexicalHit,
  LexicalSearcher,
  VectorHit,
  VectorSearcher,
} from '../../src/lib/core/recall/ports';
import type { RetrieveDeps } from '../../src/lib/core/recall/retrieve';
import { contentWords } from '../../src/lib/core/recall/text-features';

/** Content words with a crude plural / possessive strip: enough for a double. */
export function harnessTerms(text: string): string[] {
  return contentWords(text).map((w) => w.replace(/'s$/u, '').replace(/(?<=[^s])s$/u, ''));
}

export class NaiveBm25 implements LexicalSearcher {
  private readonly postings = new Map<string, Map<string, number>>();
  private readonly lengths = new Map<string, number>();
  private avgLength = 0;
  constructor(
    docs: readonly { id: string; text: string }[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    for (const doc of docs) {
      const terms = harnessTerms(doc.text);
      this.lengths.set(doc.id, terms.length);
      for (const t of terms) {
        const posting = this.postings.get(t) ?? new Map<string, number>();
        posting.set(doc.id, (posting.get(doc.id) ?? 0) + 1);
        this.postings.set(t, posting);
      }
    }
    this.avgLength = docs.length === 0 ? 0 : [...this.lengths.values()].reduce((a, b) => a + b, 0) / docs.length;
  }

  async search(query: string, k: number): Promise<LexicalHit[]> {
    const n = this.lengths.size;
    const scores = new Map<string, number>();
    for (const term of new Set(harnessTerms(query))) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      for (const [id, tf] of posting) {
        const norm = tf + this.k1 * (1 - this.b + (this.b * (this.lengths.get(id) ?? 0)) / (this.avgLength || 1));
        scores.set(id, (scores.get(id) ?? 0) + (idf * tf * (this.k1 + 1)) / norm);
      }
    }
    return [...scores]
      .map(([id, score]) => ({ id, score }))
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
      .slice(0, k);
  }
}

const DIMS = 1024;

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export class BagOfWordsEmbedder implements Embedder {
  readonly id = 'test-bow-1024';
  readonly dims = DIMS;
  readonly kind = 'lexical' as const;
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((text) => embedOne(text));
  }
}

export function embedOne(text: string): Float32Array {
  const v = new Float32Array(DIMS);
  for (const t of harnessTerms(text)) v[fnv1a(t) % DIMS]! += 1;
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < DIMS; i += 1) v[i]! /= norm;
  return v;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i += 1) s += a[i]! * b[i]!;
  return s;
}

export class ExactVectorSearcher implements VectorSearcher {
  constructor(private readonly vectors: ReadonlyMap<string, Float32Array>) {}
  async search(vector: Float32Array, k: number): Promise<VectorHit[]> {
    return [...this.vectors]
      .map(([id, v]) => ({ id, similarity: dot(vector, v) }))
      .filter((h) => h.similarity > 0)
      .sort((a, b) => b.similarity - a.similarity || a.id.localeCompare(b.id))
      .slice(0, k);
  }
  async similarity(vector: Float32Array, ids: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const id of ids) {
      const v = this.vectors.get(id);
      if (v) out.set(id, dot(vector, v));
    }
    return out;
  }
}

export class MapStore implements CandidateStore {
  private readonly byId: Map<string, CandidateRecord>;
  constructor(records: readonly CandidateRecord[]) {
    this.byId = new Map(records.map((r) => [r.id, r]));
  }
  async get(ids: readonly string[]): Promise<CandidateRecord[]> {
    return ids.flatMap((id) => this.byId.get(id) ?? []);
  }
}

/** The whole double over a set of records (indexed by their text). */
export async function harnessIndex(records: readonly CandidateRecord[]): Promise<RetrieveDeps> {
  const embedder = new BagOfWordsEmbedder();
  const vectors = await embedder.embed(records.map((r) => r.text));
  return {
    lexical: new NaiveBm25(records),
    vector: new ExactVectorSearcher(new Map(records.map((r, i) => [r.id, vectors[i]!]))),
    embedder,
    store: new MapStore(records),
  };
}
