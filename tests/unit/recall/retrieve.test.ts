import { describe, expect, it, vi } from 'vitest';
import type { CandidateRecord } from '../../../src/lib/core/recall/ports';
import { LEXICAL_VECTOR_WEIGHT, MIN_LIST_WEIGHT, retrieve, searcherWeightsFor } from '../../../src/lib/core/recall/retrieve';
import { candidateRecord } from '../../factories/recall';
import { MapStore, recordsIndex } from '../../factories/recall-index';
import { HintIndex } from '../../../src/lib/core/recall/hint-index';
import { analyze } from '../../../src/lib/core/text/analyze';
import { LexicalEmbedder } from '../../../src/lib/models/lexical-embedder';

const records: CandidateRecord[] = [
  candidateRecord({ id: 'maple', text: 'Prune the Japanese maple in late winter, before the buds swell.' }),
  candidateRecord({ id: 'moss', text: 'Moss gardens need shade and steady moisture.' }),
  candidateRecord({ id: 'gravel', text: 'Rake the gravel in the dry garden every morning.' }),
  candidateRecord({ id: 'bread', text: 'Feed the sourdough starter twice a day.' }),
];

describe('retrieve', () => {
  it('fuses BM25 and vector lists of every variant and merges duplicates into one candidate', async () => {
    const deps = await recordsIndex(records);
    const result = await retrieve(
      [
        { kind: 'concept', text: 'prune japanese maple' },
        { kind: 'method', text: 'maple winter pruning', weight: 0.5 },
      ],
      deps,
    );
    const ids = result.candidates.map((c) => c.record.id);
    expect(ids[0]).toBe('maple');
    expect(new Set(ids).size).toBe(ids.length);
    const maple = result.candidates[0]!;
    expect(maple.signals.bm25Rank).toBe(1);
    expect(maple.signals.vectorRank).toBe(1);
    expect(maple.signals.variants).toEqual(['concept', 'method']);
    expect(maple.signals.rrf).toBeGreaterThan(result.candidates[1]?.signals.rrf ?? 0);
    expect(maple.signals.vectorSimilarity).toBeGreaterThan(0.3);
  });

  it('asks a searcher with searchMany once for every searched variant, with the result of searching them one by one', async () => {
    const variants = [
      { kind: 'concept' as const, text: 'prune japanese maple' },
      { kind: 'method' as const, text: 'maple winter pruning', weight: 0.5 },
      { kind: 'continuity' as const, text: 'moss shade', weight: 0.05 },
    ];
    const alone = await recordsIndex(records);
    const expected = await retrieve(variants, alone, { weights: { bm25: 1, vector: 0.1 } });
    const batched = await recordsIndex(records);
    const single = vi.spyOn(batched.vector, 'search');
    const searchMany = vi.fn((vectors: readonly Float32Array[], k: number) => Promise.all(vectors.map((v) => alone.vector.search(v, k))));
    const got = await retrieve(variants, { ...batched, vector: { ...batched.vector, searchMany } }, { weights: { bm25: 1, vector: 0.1 } });
    expect(searchMany).toHaveBeenCalledTimes(1);
    expect(searchMany.mock.calls[0]![0]).toHaveLength(2); // the light variant's vector list is not searched
    expect(single).not.toHaveBeenCalled();
    expect(got.candidates.map((c) => [c.record.id, c.signals])).toEqual(expected.candidates.map((c) => [c.record.id, c.signals]));
  });

  it('gives candidates found by BM25 alone an exact similarity for the floor', async () => {
    const deps = await recordsIndex(records);
    const knn = vi.spyOn(deps.vector, 'search').mockResolvedValue([]);
    const result = await retrieve([{ kind: 'concept', text: 'gravel garden' }], deps);
    expect(knn).toHaveBeenCalled();
    const gravel = result.candidates.find((c) => c.record.id === 'gravel')!;
    expect(gravel.signals.vectorRank).toBeNull();
    expect(gravel.signals.vectorSimilarity).toBeGreaterThan(0);
  });

  it('does not search a list weighted below MIN_LIST_WEIGHT, yet still reads the similarity of its variant', async () => {
    const deps = await recordsIndex(records);
    const knn = vi.spyOn(deps.vector, 'search');
    const bm25 = vi.spyOn(deps.lexical, 'search');
    const weights = { bm25: 1, vector: 0.1 };
    const light = 0.05; // a deterministic subset variant: its vector list weighs 0.005
    expect(light * weights.vector).toBeLessThan(MIN_LIST_WEIGHT);
    const result = await retrieve(
      [
        { kind: 'concept', text: 'rake gravel garden' },
        { kind: 'continuity', text: 'moss shade', weight: light },
      ],
      deps,
      { weights },
    );
    expect(knn).toHaveBeenCalledTimes(1);
    expect(bm25).toHaveBeenCalledTimes(2);
    expect(result.candidates.find((c) => c.record.id === 'moss')!.signals.vectorSimilarity).toBeGreaterThan(0.3);
  });

  it('runs one searcher only when asked (the eval baselines)', async () => {
    const deps = await recordsIndex(records);
    const embed = vi.spyOn(deps.embedder, 'embed');
    const bm25Only = await retrieve([{ kind: 'authority', text: 'moss shade' }], deps, { lists: 'bm25' });
    expect(embed).not.toHaveBeenCalled();
    expect(bm25Only.candidates[0]!.signals.vectorSimilarity).toBeNull();
    const lexical = vi.spyOn(deps.lexical, 'search');
    await retrieve([{ kind: 'authority', text: 'moss shade' }], deps, { lists: 'vector' });
    expect(lexical).not.toHaveBeenCalled();
  });

  it('leaves out ids the store no longer returns and reports how many fused ids went unread', async () => {
    const deps = await recordsIndex(records);
    const result = await retrieve(
      [{ kind: 'concept', text: 'maple moss gravel garden' }],
      { ...deps, store: new MapStore(records.slice(1)) },
      { limit: 2 },
    );
    expect(result.candidates.every((c) => c.record.id !== 'maple')).toBe(true);
    expect(result.candidates.length).toBeLessThanOrEqual(2);
    expect(result.unread).toBeGreaterThan(0);
  });

  it('weighs a lexical embedder below BM25 and a neural one equal to it', () => {
    expect(searcherWeightsFor('lexical')).toEqual({ bm25: 1, vector: LEXICAL_VECTOR_WEIGHT });
    expect(searcherWeightsFor('neural')).toEqual({ bm25: 1, vector: 1 });
  });
});

describe('retrieve reads the keyword hits while the vector search runs', () => {
  const many = ['a', 'b', 'c', 'd', 'e'].map((id) => candidateRecord({ id, text: `record ${id}` }));

  /** Scripted searchers: BM25 finds a, b, c; the vector search finds e, d; every call is logged in order. */
  function scripted(log: string[], store: MapStore = new MapStore(many)) {
    const embedder = new LexicalEmbedder();
    return {
      embedder,
      lexical: {
        search: async () => {
          log.push('bm25');
          return [
            { id: 'a', score: 3 },
            { id: 'b', score: 2 },
            { id: 'c', score: 1 },
          ];
        },
      },
      vector: {
        search: async () => {
          log.push('vector');
          return [
            { id: 'e', similarity: 0.9 },
            { id: 'd', similarity: 0.8 },
          ];
        },
        similarity: async (_q: Float32Array, ids: readonly string[]) => new Map(ids.map((id) => [id, 0.5] as const)),
      },
      store: {
        get: (ids: readonly string[]) => {
          log.push(`get ${[...ids].sort().join(',')}`);
          return store.get(ids);
        },
      },
    };
  }

  it("asks the store for the keyword lists' fused top before the vector search, and afterwards only for what the vector list added", async () => {
    const log: string[] = [];
    const result = await retrieve([{ kind: 'concept', text: 'record' }], scripted(log), { weights: { bm25: 1, vector: 1 }, limit: 5 });
    expect(log).toEqual(['bm25', 'get a,b,c', 'vector', 'get d,e']);
    expect(result.candidates.map((c) => c.record.id).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(result.unread).toBe(0);
  });

  it('gives the same candidates as one read after fusion, dropping a record read early that the vector list pushed out of the top', async () => {
    const log: string[] = [];
    const weights = { bm25: 1, vector: 1 };
    const result = await retrieve([{ kind: 'concept', text: 'record' }], scripted(log), { weights, limit: 2 });
    // Fused: a (BM25 1st) and e (vector 1st) tie at 1/61; b and d follow at 1/62; c last. The top 2 are a and e.
    expect(log).toEqual(['bm25', 'get a,b', 'vector', 'get e']);
    expect(result.candidates.map((c) => c.record.id)).toEqual(['a', 'e']);
    expect(result.candidates.map((c) => c.record)).toEqual([many[0], many[4]]);
    expect(result.unread).toBe(3);
    const bm25Only = await retrieve([{ kind: 'concept', text: 'record' }], scripted([]), { weights, limit: 2, lists: 'bm25' });
    expect(bm25Only.candidates.map((c) => c.record.id)).toEqual(['a', 'b']);
  });

  it('reads once, after fusion, when only one searcher runs', async () => {
    const log: string[] = [];
    await retrieve([{ kind: 'concept', text: 'record' }], scripted(log), { lists: 'bm25', limit: 5 });
    expect(log).toEqual(['bm25', 'get a,b,c']);
    const vectorLog: string[] = [];
    await retrieve([{ kind: 'concept', text: 'record' }], scripted(vectorLog), { lists: 'vector', limit: 5 });
    expect(vectorLog).toEqual(['vector', 'get d,e']);
  });

  it("fails with the early read's error, after the vector search, and never as an unhandled rejection", async () => {
    const log: string[] = [];
    const deps = scripted(log);
    const failing = {
      ...deps,
      store: {
        get: async (ids: readonly string[]) => {
          log.push(`get ${[...ids].sort().join(',')}`);
          throw new Error('the store is gone');
        },
      },
    };
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      await expect(retrieve([{ kind: 'concept', text: 'record' }], failing, { weights: { bm25: 1, vector: 1 }, limit: 5 })).rejects.toThrow(
        'the store is gone',
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', unhandled);
    }
    expect(log).toEqual(['bm25', 'get a,b,c', 'vector', 'get d,e']);
    expect(unhandled).not.toHaveBeenCalled();
  });
});

describe('retrieve with hints', () => {
  const hinted = async () => {
    const deps = await recordsIndex(records);
    const index = new HintIndex();
    index.set('bread', ['What did they decide to feed the sourdough starter, and how often?']);
    index.set('maple', ['When did they prune the Japanese maple?']);
    return { ...deps, hints: { search: async (query: string, k: number) => index.search(query, k) } };
  };

  it("a hint brings in a document its own text does not match, and says which of the prompt's terms it held", async () => {
    const deps = await hinted();
    const plain = await retrieve([{ kind: 'concept', text: 'what did they decide' }], { ...deps, hints: undefined }, { lists: 'bm25' });
    expect(plain.candidates.map((c) => c.record.id)).not.toContain('bread');
    const got = await retrieve([{ kind: 'concept', text: 'what did they decide' }], deps, { lists: 'bm25', hintWeight: 1 });
    const bread = got.candidates.find((c) => c.record.id === 'bread')!;
    expect(bread.signals.bm25Rank).toBeNull();
    expect(bread.signals.hint).toEqual({ rank: 1, terms: analyze('decide') });
  });

  it('a document found by its text and its hint is lifted to the better of the two, never by both', async () => {
    const deps = await hinted();
    const got = await retrieve([{ kind: 'concept', text: 'prune japanese maple' }], deps, { lists: 'bm25', hintWeight: 1 });
    const maple = got.candidates.find((c) => c.record.id === 'maple')!;
    expect(maple.signals.bm25Rank).toBe(1);
    expect(maple.signals.hint?.rank).toBe(1);
    expect(maple.signals.rrf).toBeCloseTo(1 / 61, 12);
    const off = await retrieve([{ kind: 'concept', text: 'prune japanese maple' }], deps, { lists: 'bm25', hintWeight: 0 });
    expect(off.candidates.find((c) => c.record.id === 'maple')!.signals.hint).toBeUndefined();
  });
});
