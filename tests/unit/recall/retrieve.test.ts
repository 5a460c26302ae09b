import { describe, expect, it, vi } from 'vitest';
import type { CandidateRecord } from '../../../src/lib/core/recall/ports';
import { LEXICAL_VECTOR_WEIGHT, MIN_LIST_WEIGHT, retrieve, searcherWeightsFor } from '../../../src/lib/core/recall/retrieve';
import { candidateRecord } from '../../factories/recall';
import { MapStore, recordsIndex } from '../../factories/recall-index';
import { HintIndex } from '../../../src/lib/core/recall/hint-index';
import { analyze } from '../../../src/lib/core/text/analyze';

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
