/** Bytes to text and text to JSON: encodings, located errors, truncation, prototype safety. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteDecoder, decodeBytes, firstInvalidUtf8, sniffEncoding } from '../../../src/lib/core/import/decode';
import { endsEarly, looksLikeJson, mayHoldUnsafeKey, safeJsonParse } from '../../../src/lib/core/import/json';
import { parseAll } from '../../../src/lib/core/import/parse-stream';
import { concatBytes } from '../../../src/lib/core/vaultfile/bytes';

const utf8 = (s: string) => new TextEncoder().encode(s);
const concat = (...parts: Uint8Array[]) => concatBytes(parts);
function utf16(s: string, endian: 'le' | 'be', bom = true): Uint8Array {
  const out = new Uint8Array((bom ? 2 : 0) + s.length * 2);
  const view = new DataView(out.buffer);
  if (bom) view.setUint16(0, 0xfeff, endian === 'le');
  for (let i = 0; i < s.length; i++) view.setUint16((bom ? 2 : 0) + i * 2, s.charCodeAt(i), endian === 'le');
  return out;
}

const SAMPLE = 'User: Grüße, 日本庭園 🙂\nAssistant: Hallo!';

describe('decoding', () => {
  it.each([
    ['UTF-8', utf8(SAMPLE)],
    ['UTF-8 with BOM', concat(new Uint8Array([0xef, 0xbb, 0xbf]), utf8(SAMPLE))],
    ['UTF-16 LE with BOM', utf16(SAMPLE, 'le')],
    ['UTF-16 BE with BOM', utf16(SAMPLE, 'be')],
    ['UTF-16 LE without BOM', utf16(SAMPLE, 'le', false)],
    ['UTF-16 BE without BOM', utf16(SAMPLE, 'be', false)],
  ])('reads %s to the same text, also one byte at a time', (_label, bytes) => {
    expect(decodeBytes(bytes)).toEqual({ ok: true, value: SAMPLE });
    const d = new ByteDecoder();
    let text = '';
    for (const b of bytes) text += d.push(new Uint8Array([b]));
    expect(text + d.end()).toBe(SAMPLE);
  });

  it('sniffs the encoding from the first bytes', () => {
    expect(sniffEncoding(new Uint8Array([0xff, 0xfe, 0x5b, 0]))).toEqual({ encoding: 'utf-16le', bomLength: 2 });
    expect(sniffEncoding(utf8('[{"a"'))).toEqual({ encoding: 'utf-8', bomLength: 0 });
  });

  it('locates invalid UTF-8 at its byte, also across chunk borders', () => {
    const bytes = concat(utf8('[{"a":"é'), new Uint8Array([0xff]), utf8('"}]'));
    expect(firstInvalidUtf8(bytes)).toBe(9);
    const whole = decodeBytes(bytes);
    expect(whole).toMatchObject({ ok: false, error: { code: 'import/encoding', detail: { byteOffset: 9 } } });
    const d = new ByteDecoder('x.json');
    expect(() => {
      d.push(bytes.subarray(0, 8)); // cuts é in half
      d.push(bytes.subarray(8));
    }).toThrowError(/byte 9/u);
  });

  it('refuses a file that ends inside a character, and overlong / surrogate encodings', () => {
    expect(decodeBytes(concat(utf8('ab'), new Uint8Array([0xe6, 0x97])))).toMatchObject({ ok: false, error: { code: 'import/encoding' } });
    expect(firstInvalidUtf8(new Uint8Array([0xc0, 0xaf]))).toBe(0);
    expect(firstInvalidUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toBe(0);
  });

  it.each([
    ['empty', new Uint8Array(0)],
    ['a BOM only', new Uint8Array([0xef, 0xbb, 0xbf])],
    ['whitespace', utf8(' \n\t ')],
  ])('calls %s input import/empty', async (_label, bytes) => {
    expect(decodeBytes(bytes)).toMatchObject({ ok: false, error: { code: 'import/empty' } });
    const { summary } = await parseAll(bytes, { name: 'e.json' });
    expect(summary.errors.map((e) => e.code)).toEqual(['import/empty']);
  });

  it('calls binary data an encoding problem', async () => {
    const { summary } = await parseAll(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 1, 2, 3, 0, 0]), { name: 'x.pdf' });
    expect(summary.errors[0]).toMatchObject({ code: 'import/encoding' });
  });
});

describe('JSON errors', () => {
  it('reports a cut-off document as truncated at the byte where the file ends', async () => {
    const text = '{"title":"t","mapping":{"a":{"id":"a","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hel';
    const { summary } = await parseAll(utf8(text), { name: 'cut.json' });
    expect(summary.errors).toEqual([expect.objectContaining({ code: 'import/truncated', detail: { byteOffset: utf8(text).length } })]);
    expect(summary.errors[0]!.message).toMatch(/cut\.json ends early at byte \d+/u);
  });

  it('reports a cut-off list as truncated after the conversations before the cut', async () => {
    const good = JSON.stringify({
      title: 'a',
      mapping: {
        r: { id: 'r', parent: null, children: [], message: { author: { role: 'user' }, content: { content_type: 'text', parts: ['hi'] } } },
      },
    });
    const text = `[${good},${good.slice(0, 40)}`;
    const { summary } = await parseAll(utf8(text));
    expect(summary.errors.map((e) => [e.code, (e.detail as { byteOffset: number }).byteOffset])).toEqual([
      ['import/truncated', utf8(text).length],
    ]);
  });

  it('reports a syntax error with its byte offset, line and column', async () => {
    const text = '{\n  "title": "é",\n  "mapping": {,}\n}';
    const { summary } = await parseAll(utf8(text), { name: 'bad.json' });
    const error = summary.errors[0]!;
    expect(error.code).toBe('import/not-json');
    expect(error.detail).toMatchObject({ line: 3, column: 15, byteOffset: utf8(text.slice(0, text.indexOf(',}'))).length });
  });

  it('tells truncation from other errors', () => {
    expect(endsEarly('{"a": [1, 2')).toBe(true);
    expect(endsEarly('{"a": "x\\"')).toBe(true);
    expect(endsEarly('{"a": 1}}')).toBe(false);
  });

  it('treats bracketed prose as text, and JSON-shaped text as JSON', () => {
    expect(looksLikeJson('[Draft] my plan for the garden')).toBe(false);
    expect(looksLikeJson('[1] A reference')).toBe(false);
    expect(looksLikeJson('  [\n  {"title"')).toBe(true);
    expect(looksLikeJson('{ "a": 1 }')).toBe(true);
    expect(looksLikeJson('{ready} set go')).toBe(false);
  });
});

describe('prototype safety', () => {
  const attacks = [
    '{"__proto__": {"polluted": "yes"}}',
    '{"a": {"constructor": {"prototype": {"polluted": "yes"}}}}',
    '{"\\u005f\\u005fproto\\u005f\\u005f": {"polluted": "yes"}}',
    '[{"__proto__": {"polluted": "yes"}}]',
  ];

  it.each(attacks)('drops unsafe keys from %s so copying the result cannot pollute', (text) => {
    const { value, droppedKeys } = safeJsonParse(text);
    expect(droppedKeys).toBeGreaterThan(0);
    const copy = JSON.parse(JSON.stringify(value)) as unknown;
    const merged = Object.assign({}, ...(Array.isArray(copy) ? copy : [copy])) as Record<string, unknown>;
    const spread = { ...(value as object) };
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(spread)).toBe(Object.prototype);
    expect(JSON.stringify(value)).not.toMatch(/polluted/u);
  });

  it('imports a ChatGPT export full of unsafe keys without polluting anything', async () => {
    const conv = `{"title":"t","__proto__":{"isAdmin":true},"mapping":{"__proto__":{"x":1},"n1":{"id":"n1","parent":null,"children":[],"constructor":{"prototype":{"evil":1}},"message":{"author":{"role":"user","__proto__":{"role":"system"}},"content":{"content_type":"text","parts":["hello"]}}}},"current_node":"n1","id":"c1"}`;
    const { conversations, summary } = await parseAll(utf8(`[${conv}]`));
    expect(summary.errors).toEqual([]);
    expect(conversations[0]!.messages).toEqual([expect.objectContaining({ externalId: 'n1', role: 'user', text: 'hello' })]);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).evil).toBeUndefined();
  });

  it('takes the fast path only when no unsafe key can be present, with the same result', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const parsed = safeJsonParse(text);
        if (!mayHoldUnsafeKey(text)) expect(parsed).toEqual({ value: JSON.parse(text) as unknown, droppedKeys: 0 });
        expect(JSON.stringify(parsed.value)).not.toMatch(/"(__proto__|constructor|prototype)":/u);
      }),
      { numRuns: 300 },
    );
  });
});
