/**
 * The lexical fallback embedder: deterministic feature hashing (the "hashing trick") of stemmed
 * words, word bigrams and character 3-grams into 384 signed dimensions, sublinear tf, L2-normalized.
 * It runs before a neural model is cached and in tests; it captures shared vocabulary and spelling,
 * not meaning, and the UI must say so.
 *
 * Why 384: the same width as the default neural model, so the vector index's memory and speed
 * measured with these vectors carry over to the neural index; a chat turn yields ~50-200 distinct
 * features, and signed hashing keeps the collisions among them unbiased (they add noise, not a
 * bias). tests/bench/index-hnsw.bench.ts reports quality and speed at this width.
 */
import type { Embedder } from '../core/api/embedder';
import { fail } from '../core/errors';
import { stem, words } from '../core/text/analyze';
import { STOP_WORDS } from '../core/text/stop-words';

export const LEXICAL_DIMS = 384;
const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
const TRIGRAM_WEIGHT = 0.25;
const SEED_WORD = 0x811c9dc5;
const SEED_BIGRAM = 0x01000193;
const SEED_TRIGRAM = 0x9e3779b9;

/** FNV-1a over UTF-16 code units, seeded per feature family so families do not collide by design. */
function hash(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // Final avalanche (murmur3 fmix32): FNV's low bits are weak for short keys.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function count(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function addFamily(vector: Float32Array, counts: Map<string, number>, seed: number, weight: number): void {
  const dims = vector.length;
  for (const [feature, tf] of counts) {
    const h = hash(feature, seed);
    const value = weight * (1 + Math.log(tf));
    vector[(h >>> 1) % dims]! += h & 1 ? value : -value;
  }
}

/** One text -> one unit vector (a text without features hashes a sentinel, so it is still unit). */
export function lexicalVector(text: string, dims = LEXICAL_DIMS): Float32Array {
  const vector = new Float32Array(dims);
  const wordCounts = new Map<string, number>();
  const bigramCounts = new Map<string, number>();
  const trigramCounts = new Map<string, number>();
  let previous: string | null = null;
  for (const w of words(text)) {
    if (STOP_WORDS.has(w)) continue;
    const s = stem(w);
    count(wordCounts, s);
    if (previous !== null) count(bigramCounts, `${previous} ${s}`);
    previous = s;
    const padded = `<${w}>`;
    for (let i = 0; i + 3 <= padded.length; i++) count(trigramCounts, padded.slice(i, i + 3));
  }
  if (wordCounts.size === 0) count(wordCounts, '\u2205');
  addFamily(vector, wordCounts, SEED_WORD, WORD_WEIGHT);
  addFamily(vector, bigramCounts, SEED_BIGRAM, BIGRAM_WEIGHT);
  addFamily(vector, trigramCounts, SEED_TRIGRAM, TRIGRAM_WEIGHT);
  let norm = 0;
  for (let i = 0; i < dims; i++) norm += vector[i]! * vector[i]!;
  norm = Math.sqrt(norm);
  if (norm === 0) {
    vector[0] = 1; // every feature cancelled out: vanishingly rare, still a unit vector
    return vector;
  }
  for (let i = 0; i < dims; i++) vector[i]! /= norm;
  return vector;
}

export class LexicalEmbedder implements Embedder {
  readonly id: string;
  readonly dims: number;
  readonly kind = 'lexical' as const;

  constructor(dims = LEXICAL_DIMS) {
    this.dims = dims;
    this.id = `lexical-v1-${dims}`;
  }

  async embed(texts: readonly string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const text of texts) {
      if (options.signal?.aborted) fail('embed/failed', 'Embedding was cancelled.', { reason: 'aborted' });
      out.push(lexicalVector(text, this.dims));
    }
    return out;
  }
}
