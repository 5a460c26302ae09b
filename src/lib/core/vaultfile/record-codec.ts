import type { VectorRecord } from '../records';
import { fromBase64, toBase64 } from './bytes';
import { bytesToFloat32, float32ToBytes } from './canonical-json';
import { isValidHlc } from './hlc';
import type { SectionName, SectionRecords } from './sections';

/**
 * How one record becomes one line of the file and back. Every record is plain JSON except a
 * vector, whose Float32Array travels as base64 of its little-endian bytes (exact bits, about a
 * third the size of a JSON number array, and no float formatting on the way).
 *
 * JSON.stringify escapes lone surrogates as \uXXXX (ES2019 well-formed stringify), so the line is
 * always well-formed Unicode and UTF-8 encoding never replaces anything with U+FFFD.
 */
export function encodeRecord<K extends SectionName>(section: K, record: SectionRecords[K]): string {
  if (section === 'vectors') {
    const v = record as VectorRecord;
    return JSON.stringify({
      recordId: v.recordId,
      modelId: v.modelId,
      dims: v.dims,
      vector: toBase64(float32ToBytes(v.vector)),
      contentHash: v.contentHash,
      label: v.label,
    });
  }
  return JSON.stringify(record);
}

export type DecodeResult<T> = { ok: true; record: T } | { ok: false; reason: string };

type Check = (value: Record<string, unknown>) => string | null;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const str =
  (...fields: string[]): Check =>
  (value) => {
    for (const field of fields) if (typeof value[field] !== 'string') return `\`${field}\` is not a string`;
    return null;
  };

const num =
  (...fields: string[]): Check =>
  (value) => {
    for (const field of fields) if (typeof value[field] !== 'number') return `\`${field}\` is not a number`;
    return null;
  };

const hlc: Check = (value) => (isValidHlc(value.hlc) ? null : '`hlc` is not a valid hybrid-logical-clock stamp');

/**
 * Structural checks: the key and version fields merge relies on, plus the text fields. Deep schema
 * validation of every field belongs to the importer that writes the rows.
 */
const CHECKS: Record<Exclude<SectionName, 'vectors'>, Check[]> = {
  conversations: [str('id', 'source', 'title'), hlc],
  messages: [str('id', 'conversationId', 'role', 'text'), hlc],
  notes: [str('id', 'text', 'status', 'tier'), hlc],
  chunks: [str('id', 'parentId', 'text'), hlc],
  history: [str('id', 'table', 'recordId', 'action'), num('at')],
  imports: [str('id', 'status')],
  settings: [str('key')],
  tombstones: [str('table', 'id'), num('deletedAt'), hlc],
};

/** Checks and converts one parsed line into a record of its section. */
export function decodeRecord<K extends SectionName>(section: K, value: unknown): DecodeResult<SectionRecords[K]> {
  if (!isObject(value)) return { ok: false, reason: 'the line is not a JSON object' };
  if (section === 'vectors') return decodeVector(value) as DecodeResult<SectionRecords[K]>;
  for (const check of CHECKS[section as Exclude<SectionName, 'vectors'>]) {
    const reason = check(value);
    if (reason) return { ok: false, reason };
  }
  return { ok: true, record: value as unknown as SectionRecords[K] };
}

function decodeVector(value: Record<string, unknown>): DecodeResult<VectorRecord> {
  const reason = str('recordId', 'modelId', 'vector', 'contentHash')(value) ?? num('dims', 'label')(value);
  if (reason) return { ok: false, reason };
  const dims = value.dims as number;
  if (!Number.isInteger(dims) || dims < 0) return { ok: false, reason: '`dims` is not a non-negative integer' };
  const bytes = fromBase64(value.vector as string);
  if (!bytes) return { ok: false, reason: '`vector` is not canonical base64' };
  if (bytes.length !== dims * 4) return { ok: false, reason: `\`vector\` holds ${bytes.length} bytes, expected ${dims * 4} (dims × 4)` };
  return {
    ok: true,
    record: {
      recordId: value.recordId as string,
      modelId: value.modelId as string,
      dims,
      vector: bytesToFloat32(bytes),
      contentHash: value.contentHash as string,
      label: value.label as number,
    },
  };
}
