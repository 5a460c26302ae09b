/**
 * Binary form of a BM25 index for persistence (one IndexedDB value): magic, version, a JSON header
 * (options, document ids, terms) and three Uint32 columns. Decoding checks every length and offset
 * and returns `index/corrupt` instead of an index that answers with the wrong documents.
 */
import { err, ok, type Result, vaultError } from '../errors';
import { analyze } from '../text/analyze';
import { Bm25Index, type Bm25State } from './bm25';

const MAGIC = 0x35324d42; // "BM25" little-endian
const VERSION = 1;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Header {
  options: Bm25State['options'];
  ids: string[];
  terms: string[];
}

export function encodeBm25(index: Bm25Index): Uint8Array {
  const state = index.exportState();
  const header = encoder.encode(JSON.stringify({ options: state.options, ids: state.ids, terms: state.terms } satisfies Header));
  const headerPadded = Math.ceil(header.length / 4) * 4;
  const columns = [state.lengths, state.offsets, state.postings];
  const bytes = new Uint8Array(16 + headerPadded + columns.reduce((sum, c) => sum + 4 + c.byteLength, 0));
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  view.setUint32(8, header.length, true);
  view.setUint32(12, columns.length, true);
  bytes.set(header, 16);
  let at = 16 + headerPadded;
  for (const column of columns) {
    view.setUint32(at, column.length, true);
    at += 4;
    new Uint32Array(bytes.buffer, at, column.length).set(column);
    at += column.byteLength;
  }
  return bytes;
}

function corrupt(why: string) {
  return err(vaultError('index/corrupt', 'The stored keyword index is damaged; it will be rebuilt.', why));
}

export function decodeBm25(bytes: Uint8Array, analyzer: (text: string) => string[] = analyze): Result<Bm25Index> {
  // Copy so the columns are 4-byte aligned whatever the source buffer's offset.
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  if (copy.length < 16 || view.getUint32(0, true) !== MAGIC) return corrupt('bad magic');
  if (view.getUint32(4, true) !== VERSION) return corrupt(`unknown version ${view.getUint32(4, true)}`);
  const headerLength = view.getUint32(8, true);
  if (16 + headerLength > copy.length || view.getUint32(12, true) !== 3) return corrupt('bad header length');
  let header: Header;
  try {
    header = JSON.parse(decoder.decode(copy.subarray(16, 16 + headerLength))) as Header;
  } catch {
    return corrupt('header is not JSON');
  }
  if (!Array.isArray(header.ids) || !Array.isArray(header.terms) || typeof header.options?.k1 !== 'number') return corrupt('bad header');
  let at = 16 + Math.ceil(headerLength / 4) * 4;
  const columns: Uint32Array[] = [];
  for (let i = 0; i < 3; i++) {
    if (at + 4 > copy.length) return corrupt('truncated');
    const length = view.getUint32(at, true);
    at += 4;
    if (at + length * 4 > copy.length) return corrupt('truncated column');
    columns.push(new Uint32Array(copy.buffer, at, length));
    at += length * 4;
  }
  const [lengths, offsets, postings] = columns as [Uint32Array, Uint32Array, Uint32Array];
  if (lengths.length !== header.ids.length || offsets.length !== header.terms.length + 1) return corrupt('column sizes disagree');
  if (offsets[offsets.length - 1] !== postings.length) return corrupt('postings size disagrees');
  for (let t = 0; t < header.terms.length; t++) if (offsets[t]! > offsets[t + 1]!) return corrupt('offsets not increasing');
  const docs = header.ids.length;
  for (const posting of postings) if (Math.floor(posting / 256) >= docs) return corrupt('posting points past the documents');
  return ok(Bm25Index.fromState({ options: header.options, ids: header.ids, lengths, terms: header.terms, offsets, postings }, analyzer));
}
