import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../../src/lib/core/index/bm25';
import { decodeBm25, encodeBm25 } from '../../../src/lib/core/index/bm25-codec';
import { seededRng } from '../../factories/rng';

/** Textbook BM25+ over token lists (Lucene idf), written for clarity to check the index against. */
function reference(docs: ReadonlyMap<string, string[]>, query: string[], k1 = 1.2, b = 0.75, delta = 1) {
  const n = docs.size;
  const avgdl = [...docs.values()].reduce((s, d) => s + d.length, 0) / n || 1;
  const scores = new Map<string, number>();
  for (const term of new Set(query)) {
    const df = [...docs.values()].filter((d) => d.includes(term)).length;
    if (df === 0) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (const [id, doc] of docs) {
      const tf = doc.filter((t) => t === term).length;
      if (tf === 0) continue;
      const bm25 = (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / avgdl));
      scores.set(id, (scores.get(id) ?? 0) + bm25 + delta * idf);
    }
  }
  return scores;
}

const vocab = fc.constantFrom('moss', 'stone', 'pond', 'maple', 'tea', 'rake', 'gravel', 'lantern');
const docsArb = fc.uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 4 }), fc.array(vocab, { minLength: 1, maxLength: 12 })), {
  minLength: 1,
  maxLength: 30,
  selector: ([id]) => id,
});
const split = (text: string) => text.split(' ').filter(Boolean);

function expectMatchesReference(index: Bm25Index, docs: Map<string, string[]>, query: string[], delta = 1) {
  const expected = reference(docs, query, 1.2, 0.75, delta);
  const hits = index.searchTerms(query, docs.size);
  expect(hits.length).toBe(expected.size);
  for (const hit of hits) expect(hit.score).toBeCloseTo(expected.get(hit.id)!, 4);
  for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
}

describe('Bm25Index', () => {
  it('ranks by BM25 with English analysis (stems, stop words)', () => {
    const index = new Bm25Index();
    index.add('a', 'Caroline went to the LGBTQ support group yesterday.');
    index.add('b', 'Melanie painted a sunrise by the lake.');
    index.add('c', 'Caroline is supporting her friends at the group meetings.');
    // "go" does not stem to "went": both Caroline documents match three terms; the shorter wins.
    expect(index.search('When did Caroline go to the support groups?', 3).map((h) => h.id)).toEqual(['c', 'a']);
    expect(index.search('LGBTQ support', 3).map((h) => h.id)).toEqual(['a', 'c']);
    expect(index.search('painting sunrises')[0]!.id).toBe('b');
    expect(index.search('the and of')).toEqual([]);
  });

  it('scores exactly like textbook BM25+ (and BM25 with delta 0)', () => {
    fc.assert(
      fc.property(docsArb, fc.array(vocab, { minLength: 1, maxLength: 4 }), (entries, query) => {
        const index = new Bm25Index({}, split);
        const classic = new Bm25Index({ delta: 0 }, split);
        for (const [id, tokens] of entries) index.add(id, tokens.join(' '));
        for (const [id, tokens] of entries) classic.add(id, tokens.join(' '));
        expectMatchesReference(index, new Map(entries), query);
        expectMatchesReference(classic, new Map(entries), query, 0);
      }),
    );
  });

  it('returns a correct top k with pruning: common words left for last cannot hide a better document', () => {
    const rng = seededRng(9);
    const common = ['moss', 'stone', 'pond'];
    const rare = ['lantern', 'gravel', 'maple', 'tea', 'rake', 'koi', 'bridge', 'pine'];
    const docs = new Map<string, string[]>();
    for (let i = 0; i < 3000; i++) {
      const tokens: string[] = [];
      for (const word of common) for (let n = Math.floor(rng() * 3); n > 0; n--) tokens.push(word);
      if (rng() < 0.02) tokens.push(rare[Math.floor(rng() * rare.length)]!);
      if (tokens.length === 0) tokens.push('water');
      docs.set(`d${i}`, tokens);
    }
    const index = new Bm25Index({}, split);
    for (const [id, tokens] of docs) index.add(id, tokens.join(' '));
    for (const query of [['lantern', 'moss', 'stone'], ['koi', 'pine', 'pond', 'moss'], ['moss', 'stone', 'pond'], ['tea']]) {
      for (const k of [1, 5, 10]) {
        const expected = reference(docs, query);
        const hits = index.searchTerms(query, k);
        expect(hits.length).toBe(Math.min(k, expected.size));
        for (const hit of hits) expect(hit.score).toBeCloseTo(expected.get(hit.id)!, 4);
        const kth = hits[hits.length - 1]!.score;
        const returned = new Set(hits.map((h) => h.id));
        for (const [id, score] of expected) if (!returned.has(id)) expect(score).toBeLessThanOrEqual(kth + 1e-4);
      }
    }
  });

  it('with a filter, returns the top k of the accepted documents (pruning bounded by them, not by refused ones)', () => {
    const rng = seededRng(11);
    const docs = new Map<string, string[]>();
    // Refused documents say "moss" most: a top k taken before the filter would hold none of the accepted ones.
    for (let i = 0; i < 2000; i++) docs.set(`r${i}`, ['moss', 'moss', 'moss', rng() < 0.5 ? 'stone' : 'pond']);
    for (let i = 0; i < 50; i++) docs.set(`a${i}`, ['moss', ...Array.from({ length: 1 + Math.floor(rng() * 8) }, () => 'water')]);
    const index = new Bm25Index({}, split);
    for (const [id, tokens] of docs) index.add(id, tokens.join(' '));
    const accept = (id: string) => id.startsWith('a');
    const expected = [...reference(docs, ['moss', 'stone'])].filter(([id]) => accept(id)).sort((x, y) => y[1] - x[1]);
    expect(index.searchTerms(['moss', 'stone'], 10).every((h) => h.id.startsWith('r'))).toBe(true);
    const hits = index.searchTerms(['moss', 'stone'], 10, accept);
    expect(hits.length).toBe(10);
    hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]![1], 4));
    expect(index.search('moss', 100, accept).length).toBe(50);
  });

  it('never returns a removed document, and scores exactly again after compaction', () => {
    fc.assert(
      fc.property(
        docsArb,
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.array(vocab, { minLength: 1, maxLength: 4 }),
        (entries, picks, query) => {
          const index = new Bm25Index({}, split);
          const docs = new Map(entries);
          for (const [id, tokens] of entries) index.add(id, tokens.join(' '));
          for (const pick of picks) {
            const id = entries[pick % entries.length]![0];
            index.remove(id);
            docs.delete(id);
          }
          expect(index.size).toBe(docs.size);
          for (const hit of index.searchTerms(query, 100)) expect(docs.has(hit.id)).toBe(true);
          index.compact();
          if (docs.size > 0) expectMatchesReference(index, docs, query);
        },
      ),
    );
  });

  it('explains which query terms each document holds, before and after removals and compaction', () => {
    fc.assert(
      fc.property(
        docsArb,
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.array(vocab, { minLength: 1, maxLength: 4 }),
        (entries, picks, query) => {
          const index = new Bm25Index({}, split);
          const docs = new Map(entries);
          for (const [id, tokens] of entries) index.add(id, tokens.join(' '));
          for (const pick of picks) {
            const id = entries[pick % entries.length]![0];
            index.remove(id);
            docs.delete(id);
          }
          const check = () => {
            const ids = entries.map(([id]) => id);
            const explained = index.explain([...query, 'unheard'].join(' '), ids);
            expect(explained.terms.map((t) => t.term)).toEqual([...new Set([...query, 'unheard'])]);
            expect(explained.terms.at(-1)!.df).toBe(0);
            for (const stat of explained.terms) expect(stat.idf).toBeGreaterThan(0);
            expect([...explained.matched.keys()].sort()).toEqual([...docs.keys()].sort());
            for (const [id, held] of explained.matched) {
              expect(held.map((i) => explained.terms[i]!.term)).toEqual(
                explained.terms.map((t) => t.term).filter((t) => (docs.get(id)! as string[]).includes(t)),
              );
            }
          };
          check();
          index.compact();
          check();
        },
      ),
    );
  });

  it('counts only live documents in df: a replaced document is not counted twice, a removed one not at all', () => {
    const index = new Bm25Index({}, split);
    index.add('n', 'comet races sundays track');
    index.add('n', 'comet races saturdays');
    index.add('x', 'moss');
    index.remove('x');
    const { documents, terms, matched } = index.explain('comet track moss', ['n']);
    expect(documents).toBe(1);
    expect(terms.map((t) => t.df)).toEqual([1, 0, 0]);
    for (const t of terms) expect(t.idf).toBeGreaterThan(0);
    expect(matched.get('n')).toEqual([0]);
  });

  it('gives an unknown term the highest idf', () => {
    const index = new Bm25Index({}, split);
    index.add('a', 'moss stone');
    index.add('b', 'moss pond');
    const { terms } = index.explain('moss pond espresso', ['a', 'b']);
    expect(terms.map((t) => t.df)).toEqual([2, 1, 0]);
    expect(terms[0]!.idf).toBeLessThan(terms[1]!.idf);
    expect(terms[1]!.idf).toBeLessThan(terms[2]!.idf);
  });

  it('reads an unknown term as the indexed term sharing a long prefix with it, never a short one', () => {
    const index = new Bm25Index({}, split);
    index.add('a', 'entrepreneur mentor');
    index.add('b', 'radio moss');
    index.add('c', 'moss');
    const { terms, matched } = index.explain('entrepreneurial mentorship radiocarbon mosses', ['a', 'b', 'c']);
    expect(terms.map((t) => t.near ?? null)).toEqual(['entrepreneur', 'mentor', null, null]);
    expect(terms.map((t) => t.df)).toEqual([1, 1, 0, 0]);
    expect(matched.get('a')).toEqual([0, 1]);
    expect(matched.get('b')).toEqual([]);
  });

  it('replaces a document added again under the same id', () => {
    const index = new Bm25Index({}, split);
    index.add('x', 'moss stone');
    index.add('y', 'pond');
    index.add('x', 'pond pond');
    expect(index.size).toBe(2);
    expect(index.searchTerms(['moss'])).toEqual([]);
    expect(index.searchTerms(['pond']).map((h) => h.id)).toEqual(['x', 'y']);
  });

  it('round-trips through its binary form with identical results', () => {
    fc.assert(
      fc.property(
        docsArb,
        fc.array(fc.nat(), { maxLength: 5 }),
        fc.array(vocab, { minLength: 1, maxLength: 4 }),
        (entries, picks, query) => {
          const index = new Bm25Index({ k1: 1.5, b: 0.6, delta: 0.5 }, split);
          for (const [id, tokens] of entries) index.add(id, tokens.join(' '));
          for (const pick of picks) index.remove(entries[pick % entries.length]![0]);
          const decoded = decodeBm25(encodeBm25(index), split);
          if (!decoded.ok) throw new Error(decoded.error.message);
          // The stored form holds live documents only, as after a compaction.
          index.compact();
          expect(decoded.value.options).toEqual({ k1: 1.5, b: 0.6, delta: 0.5 });
          expect(decoded.value.searchTerms(query, 50)).toEqual(index.searchTerms(query, 50));
          decoded.value.add('new', 'moss');
          expect(decoded.value.searchTerms(['moss'], 100).some((h) => h.id === 'new')).toBe(true);
        },
      ),
    );
  });

  it('reports damaged bytes as index/corrupt', () => {
    const index = new Bm25Index();
    index.add('a', 'moss and stones');
    const bytes = encodeBm25(index);
    const truncated = decodeBm25(bytes.subarray(0, bytes.length - 3));
    expect(truncated.ok ? null : truncated.error.code).toBe('index/corrupt');
    const flipped = bytes.slice();
    flipped[0] = 0;
    expect(decodeBm25(flipped).ok).toBe(false);
    const badPosting = bytes.slice();
    new DataView(badPosting.buffer).setUint32(badPosting.length - 4, 99 * 256 + 1, true);
    expect(decodeBm25(badPosting).ok).toBe(false);
  });
});
