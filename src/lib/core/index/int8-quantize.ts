/**
 * Scalar quantization of a vector to int8, per vector: v ≈ q × factor with factor = max|v| / 127.
 * Per-vector rather than one global scale because vectors differ in their largest component (a
 * short text's lexical vector has a few large values, a long one's many small ones): a global
 * scale would round the small ones to zero. Measured in tests/bench/index-vectors.bench.ts.
 */
import { dotAt } from './vector-math';

/** Writes the quantized vector into `out` (same length) and returns its factor (0 for a zero vector). */
export function quantizeInto(vector: Float32Array, out: Int8Array): number {
  if (out.length !== vector.length) throw new RangeError(`expected ${out.length} dims, got ${vector.length}`);
  let max = 0;
  for (let i = 0; i < vector.length; i++) {
    const a = Math.abs(vector[i]!);
    if (a > max) max = a;
  }
  if (!(max > 0) || !Number.isFinite(max)) {
    out.fill(0);
    return 0;
  }
  const scale = 127 / max;
  for (let i = 0; i < vector.length; i++) out[i] = Math.round(vector[i]! * scale);
  return max / 127;
}

export function quantize(vector: Float32Array): { values: Int8Array; factor: number } {
  const values = new Int8Array(vector.length);
  return { values, factor: quantizeInto(vector, values) };
}

/** dot(query, dequantized row): the float query against the stored int8 values (no query rounding). */
export function asymmetricDot(query: Float32Array, row: Int8Array, factor: number, at: Int32Array | null = null): number {
  // Over the query's non-zero positions alone when given (`nonZeroPositions`): the same sum.
  if (at) return dotAt(query, row, at) * factor;
  let sum = 0;
  for (let i = 0; i < query.length; i++) sum += query[i]! * row[i]!;
  return sum * factor;
}
