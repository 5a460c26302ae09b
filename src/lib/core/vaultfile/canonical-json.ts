import { toBase64 } from './bytes';

/**
 * Canonical JSON: object keys sorted (by UTF-16 code units, JavaScript's default sort), no
 * whitespace, and otherwise exactly JSON.stringify's rules, so a value and its JSON round trip have
 * the same canonical form: undefined members are dropped, NaN and ±Infinity become null, -0 becomes
 * 0, lone surrogates are escaped as \uXXXX. A Float32Array becomes {"$f32": base64 of its
 * little-endian bytes}, the form vectors take in the vault file.
 */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'null';
}

function write(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      throw new TypeError('canonicalJson: BigInt has no JSON form');
  }
  if (value instanceof Float32Array) return `{"$f32":${JSON.stringify(toBase64(float32ToBytes(value)))}}`;
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') return write(withToJson.toJSON());
  if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? 'null').join(',')}]`;
  const object = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(object).sort()) {
    const member = write(object[key]);
    if (member !== undefined) parts.push(`${JSON.stringify(key)}:${member}`);
  }
  return `{${parts.join(',')}}`;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The little-endian bytes of a Float32Array (a copy; exact bits, NaN payloads included). */
export function float32ToBytes(vector: Float32Array): Uint8Array {
  const bytes = new Uint8Array(vector.byteLength);
  if (LITTLE_ENDIAN) {
    bytes.set(new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
    return bytes;
  }
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i]!, true);
  return bytes;
}

export function bytesToFloat32(bytes: Uint8Array): Float32Array {
  if (bytes.length % 4 !== 0) throw new RangeError('vector bytes are not a whole number of float32 values');
  const out = new Float32Array(bytes.length / 4);
  if (LITTLE_ENDIAN) {
    new Uint8Array(out.buffer).set(bytes);
    return out;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
