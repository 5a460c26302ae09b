import { describe, expect, it } from 'vitest';
import { LEXICAL_DIMS, LexicalEmbedder, lexicalVector } from '../../../src/lib/models/lexical-embedder';
import { dot } from '../../../src/lib/core/index/vector-math';

const norm = (v: Float32Array) => Math.sqrt(dot(v, v));

describe('LexicalEmbedder', () => {
  const embedder = new LexicalEmbedder();

  it('declares a lexical 384-dimension embedder with a versioned id', () => {
    expect(embedder).toMatchObject({ id: 'lexical-v1-384', dims: LEXICAL_DIMS, kind: 'lexical' });
    expect(new LexicalEmbedder(128).id).toBe('lexical-v1-128');
  });

  it('returns unit vectors, also for empty and stop-word-only texts', async () => {
    const vectors = await embedder.embed(['Caroline went to the LGBTQ support group.', '', 'the and of', '🙂', 'x'.repeat(5000)]);
    for (const v of vectors) {
      expect(v.length).toBe(384);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });

  it('is deterministic: fixed hash values, the same on every run and machine', async () => {
    const [a] = await embedder.embed(['Melanie painted a sunrise by the lake in 2022.']);
    const [b] = await new LexicalEmbedder().embed(['Melanie painted a sunrise by the lake in 2022.']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    // Pinned values: a change to the hashing or the features must bump the id (lexical-v2-...).
    const pinned = lexicalVector('garden stones');
    const nonzero = [...pinned.entries()].filter(([, x]) => x !== 0).map(([i, x]) => [i, Number(x.toFixed(4))]);
    expect(nonzero).toMatchSnapshot();
  });

  it('puts related texts closer than unrelated ones', () => {
    const q = lexicalVector('When did Caroline go to the LGBTQ support group?');
    const related = lexicalVector('Caroline: I went to a LGBTQ support group yesterday and it was so powerful.');
    const unrelated = lexicalVector('Melanie: I painted a sunrise over the lake last summer.');
    expect(dot(q, related)).toBeGreaterThan(dot(q, unrelated) + 0.2);
    // Stemming and character n-grams: inflections and misspellings still meet.
    expect(dot(lexicalVector('painting sunrises'), lexicalVector('she painted a sunrise'))).toBeGreaterThan(0.5);
    expect(dot(lexicalVector('photography'), lexicalVector('photograpy'))).toBeGreaterThan(0.3);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed(['a'], { signal: controller.signal })).rejects.toMatchObject({ code: 'embed/failed' });
  });
});
