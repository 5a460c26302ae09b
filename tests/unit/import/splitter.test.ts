/** The streaming splitter gives exactly the elements JSON.parse sees, however the text is cut. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonArraySplitter, SplitError } from '../../../src/lib/core/import/json-array-splitter';

/** Feeds `text` cut at `cuts` (positions), returns the parsed elements. */
function split(text: string, cuts: number[] = [], max?: number): unknown[] {
  const splitter = new JsonArraySplitter(max);
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: unknown[] = [];
  let at = 0;
  for (const p of [...points, text.length]) {
    for (const el of splitter.push(text.slice(at, p))) out.push(JSON.parse(el.text));
    at = p;
  }
  splitter.end();
  return out;
}

function everyCut(text: string): void {
  const expected = JSON.parse(text) as unknown[];
  for (let i = 0; i <= text.length; i++) expect(split(text, [i])).toEqual(expected);
  // One character at a time.
  expect(
    split(
      text,
      Array.from({ length: text.length }, (_, i) => i),
    ),
  ).toEqual(expected);
}

describe('JsonArraySplitter', () => {
  it('splits strings holding brackets, quotes and escapes, cut anywhere', () => {
    everyCut('[{"a":"]},{[\\"x\\\\"},"\\\\",["]"],{"b":{"c":[1,{"d":"}"}]}}, "s]{", 12, -3.5e2, true, null, []]');
  });

  it('handles a backslash as the last character of a chunk', () => {
    const text = '["a\\\\", "b\\"c", "\\u00e9\\n"]';
    everyCut(text);
  });

  it('handles whitespace everywhere and an empty list', () => {
    everyCut(' \n[ \n{ "a" : 1 } \n, \t[ ] ,"x" ]\n ');
    expect(split('[]')).toEqual([]);
    expect(split('  [ \n ]  ')).toEqual([]);
  });

  it('reports element offsets and indexes', () => {
    const s = new JsonArraySplitter();
    const els = [...s.push('[{"a":1}, '), ...s.push('{"b":2}]')];
    expect(els.map((e) => [e.index, e.charOffset, e.text])).toEqual([
      [0, 1, '{"a":1}'],
      [1, 10, '{"b":2}'],
    ]);
    s.end();
    expect(s.done).toBe(true);
  });

  it.each([
    ['[{"a":1}', 'truncated'],
    ['[{"a":"1}]', 'truncated'],
    ['[{"a":1},', 'truncated'],
    ['', 'truncated'],
    ['{"a":1}', 'syntax'],
    ['[{"a":1} {"b":2}]', 'syntax'],
    ['[{"a":1},]', 'syntax'],
    ['[1] trailing', 'syntax'],
    ['[,1]', 'syntax'],
  ])('refuses %j as %s', (text, kind) => {
    let thrown: unknown;
    try {
      split(text);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(SplitError);
    expect((thrown as SplitError).kind).toBe(kind);
  });

  it('refuses an element larger than its limit, across chunks, without holding more', () => {
    const big = `[${JSON.stringify({ t: 'x'.repeat(200) })}]`;
    expect(() => split(big, [50, 100, 150], 100)).toThrowError(SplitError);
    expect(split(big, [50], 1000)).toHaveLength(1);
  });

  it('gives the same elements as JSON.parse for random lists cut into random chunks (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 12 }),
        fc.constantFrom(undefined, 0, 1, 2, '\t'),
        fc.array(fc.nat(), { maxLength: 40 }),
        (list, indent, cuts) => {
          const text = JSON.stringify(list, null, indent);
          expect(split(text, cuts)).toEqual(JSON.parse(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('splits lists of strings full of escapes and unicode at every cut (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', 'é', '🙂', 'a', '\n') }), { maxLength: 6 }),
        (list) => {
          everyCut(JSON.stringify(list));
        },
      ),
      { numRuns: 100 },
    );
  });
});
