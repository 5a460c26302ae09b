/** Dot product of two vectors of the same length (the cosine of two unit vectors). */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * Above this share of non-zero values a query is summed whole: the positions' indirection costs
 * more than the zeros it skips. A quarter, as the int8 scan's `SPARSE_QUERY_SHARE`, was not
 * measured apart; the lexical embedder's queries (31-50 of 384) sit far below it either way.
 */
export const SPARSE_DOT_SHARE = 0.25;

/**
 * The positions where `query` is not zero, when they are at most `SPARSE_DOT_SHARE` of its length
 * (a lexical embedder's query); null for a dense query. `dotAt` over them sums the same terms in
 * the same order as `dot` less the ones that are zero, so it gives exactly the same number.
 */
export function nonZeroPositions(query: ArrayLike<number>): Int32Array | null {
  let count = 0;
  for (let i = 0; i < query.length; i++) if (query[i] !== 0) count++;
  if (count > SPARSE_DOT_SHARE * query.length) return null;
  const out = new Int32Array(count);
  let n = 0;
  for (let i = 0; i < query.length; i++) if (query[i] !== 0) out[n++] = i;
  return out;
}

/** `dot(a, b)` over the positions `at` alone (`nonZeroPositions(a)`: the same value). */
export function dotAt(a: ArrayLike<number>, b: ArrayLike<number>, at: Int32Array): number {
  let sum = 0;
  for (let n = 0; n < at.length; n++) {
    const i = at[n]!;
    sum += a[i]! * b[i]!;
  }
  return sum;
}

/** Cosine similarity of two vectors of any length; 0 when either is all zeros. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const norms = Math.sqrt(dot(a, a) * dot(b, b));
  return norms === 0 ? 0 : dot(a, b) / norms;
}
