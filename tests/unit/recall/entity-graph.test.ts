import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EntityGraph } from '../../../src/lib/core/graph/entity-graph';
import { linkEntities } from '../../../src/lib/core/graph/entity-linker';
import { chunkSpeaker } from '../../../src/lib/services/index/entity-links';

const keys = (text: string, speaker: string | null = null) =>
  linkEntities(text, speaker)
    .filter((m) => !m.opening)
    .map((m) => m.key);

describe('entity linker', () => {
  it('links speakers, proper nouns inside sentences, multi-word names and quoted titles', () => {
    expect(keys('I went to Lisbon with Ana last week.', 'Caroline')).toEqual(['caroline', 'lisbon', 'ana']);
    expect(keys('We loved "The Four Seasons" at the Royal Albert Hall.')).toEqual(['the four seasons', 'royal albert hall']);
    expect(keys("I loved Caroline's painting.")).toEqual(['caroline']);
    // A capitalized first word is only a candidate: the graph links it if the vault writes it mid-sentence.
    expect(linkEntities('Comet ran fast.')).toEqual([{ key: 'comet', name: 'Comet', kind: 'name', opening: true }]);
  });

  it('skips sentence-opening words, greetings, weekdays and role names', () => {
    expect(keys('Yesterday was great. Thanks, Mel!', 'assistant')).toEqual(['mel']);
    expect(keys('Hey! What did you do on Friday?')).toEqual([]);
    expect(keys('Sounds fun.', 'user')).toEqual([]);
    // "I" with a contraction is capitalized mid-sentence, and never a name.
    expect(keys("Thanks, I'll try it, and I'm sure I've got Mel's book.")).toEqual(['mel']);
    // A word after a list marker or emphasis opens its line: only a candidate, like a sentence's first word.
    expect(keys('Options:\n- Consider using Redis\n2. **Use** Postgres\n## Setup with Docker')).toEqual(['redis', 'postgres', 'docker']);
    expect(linkEntities('- Consider it.')).toEqual([{ key: 'consider', name: 'Consider', kind: 'name', opening: true }]);
  });

  it('finds no names in code: fenced blocks and inline spans are not prose', () => {
    const text =
      'Add indexes for Postgres:\n```sql\nCREATE INDEX idx_users_org_id ON users(org_id);\nname VARCHAR(255) NOT NULL\n```\nThen ask Priya to run `EXPLAIN ANALYZE` on Staging.';
    expect(keys(text)).toEqual(['postgres', 'priya', 'staging']);
  });
});

describe('entity graph and its walk', () => {
  function graph(): EntityGraph {
    const g = new EntityGraph();
    g.set('d1', linkEntities('I adopted a greyhound named Comet in Lisbon.', 'Ana'));
    g.set('d2', linkEntities('Comet ran his first race at the Lisbon track.', 'Ana'));
    g.set('d3', linkEntities('My sister moved to Porto for a design job.', 'Ben'));
    g.set('d4', linkEntities('Ben and Ana met in Porto once.', 'Ben'));
    g.set('d5', linkEntities('Comet sleeps all day.', 'Ana'));
    return g;
  }

  it('links an entity once the vault names it twice or it speaks, with co-occurrence edges', () => {
    const g = graph();
    expect(g.entity('comet')).toMatchObject({ name: 'Comet', mentions: 3 });
    expect(g.entity('ana')).toMatchObject({ kind: 'person', mentions: 4 });
    expect(g.documentsOf('Lisbon').sort()).toEqual(['d1', 'd2']);
    expect(g.neighbours('comet').map((n) => n.id)).toEqual(['ana', 'lisbon']);
    g.set('d6', linkEntities('Once in Madrid.', null));
    expect(g.entity('madrid')).toBeNull();
    g.remove('d2');
    expect(g.entity('lisbon')).toBeNull();
    expect(g.entity('comet')!.mentions).toBe(2);
  });

  it('walks from the seed entities: documents of the seed first, then what their other entities reach', () => {
    const g = graph();
    const walk = g.walk(['comet'], 10);
    expect(
      walk
        .slice(0, 3)
        .map((h) => h.id)
        .sort(),
    ).toEqual(['d1', 'd2', 'd5']);
    // d4 shares only Ana (reached through Comet's documents), d3 only Ben (two hops further): d4 above d3.
    const rank = new Map(walk.map((h, i) => [h.id, i]));
    expect(rank.get('d4')!).toBeLessThan(rank.get('d3') ?? Infinity);
    expect(g.walk(['nobody'], 10)).toEqual([]);
    const total = g.walk(['comet'], 10, { steps: 1 }).reduce((s, h) => s + h.score, 0);
    expect(total).toBeCloseTo(1, 6);
  });

  it('puts the hub line at the 90th percentile of mention counts', () => {
    const g = new EntityGraph();
    for (let i = 0; i < 20; i++) g.set(`d${i}`, linkEntities(`Ana met Name${i % 10} today.`, 'Ana'));
    // Ana: 20 mentions; Name0..Name9: 2 each. Eleven linked entities: P90 is the 10th count (2).
    expect(g.p90()).toBe(2);
    expect(g.entitiesOf('d0').map((e) => [e.id, e.mentions])).toEqual([
      ['ana', 20],
      ['name0', 2],
    ]);
  });

  it('finds a chunk speaker in its context text', () => {
    expect(chunkSpeaker({ text: 'I went hiking.', contextText: 'Session 1 — 1:56 pm on 8 May, 2023\nCaroline: I went hiking.' })).toBe(
      'Caroline',
    );
    expect(chunkSpeaker({ text: 'Plain text', contextText: 'Title\nPlain text' })).toBeNull();
  });
});

describe('the entities named most (the Overview)', () => {
  it('counts conversations, not documents, ranks by them, skips unlinked names and forgets removed documents', () => {
    const g = new EntityGraph();
    // Lisbon: three chunks of one conversation and a note of another (2 conversations, 4 documents).
    g.set('c1:0', linkEntities('We flew to Lisbon in May.'), 'c1');
    g.set('c1:1', linkEntities('The hotel in Lisbon was small.'), 'c1');
    g.set('c1:2', linkEntities('I liked the trams in Lisbon best.'), 'c1');
    g.set('n1', linkEntities('We should book the flat in Lisbon again.'), 'c4');
    // Porto: three conversations, one document each.
    g.set('c2:0', linkEntities('A weekend in Porto sounds good.'), 'c2');
    g.set('c3:0', linkEntities('The wine tour in Porto was the best.'), 'c3');
    g.set('c4:0', linkEntities('Maybe Porto again next year.'), 'c4');
    // Named once: not linked, not listed.
    g.set('c5:0', linkEntities('We also saw Braga briefly.'), 'c5');
    expect(g.top(10).map((e) => [e.name, e.conversations, e.mentions])).toEqual([
      ['Porto', 3, 3],
      ['Lisbon', 2, 4],
    ]);
    expect(g.top(1).map((e) => e.name)).toEqual(['Porto']);
    // A document without a conversation (a pasted resource) counts as one of its own.
    g.set('r1', linkEntities('Notes on Lisbon neighbourhoods.'));
    g.set('r2', linkEntities('More on Lisbon.'));
    expect(g.top(1)[0]).toMatchObject({ name: 'Lisbon', conversations: 4, mentions: 6 });
    for (const id of ['c1:0', 'c1:1', 'c1:2', 'n1', 'r1', 'r2']) g.remove(id);
    expect(g.top(10).map((e) => e.name)).toEqual(['Porto']);
    g.clear();
    expect(g.top(10)).toEqual([]);
  });
});

describe('the graph saved and read back (documents-snapshot.ts)', () => {
  function lived(): EntityGraph {
    const g = new EntityGraph();
    g.set('d1', linkEntities('I adopted a greyhound named Comet in Lisbon.', 'Ana'), 'c1');
    g.set('d2', linkEntities('Comet ran his first race at the Lisbon track.', 'Ana'), 'c1');
    g.set('d3', linkEntities('My sister moved to Porto for a design job.', 'Ben'), 'c2');
    g.set('d4', linkEntities('Ben and Ana met in Porto once.', 'Ben'), 'c2');
    g.set('d5', linkEntities('Comet sleeps all day.', 'Ana'));
    g.set('n1', linkEntities('Madrid and Porto are on the list. Madrid first.'), 'c3');
    // A history the restore must not depend on: a document removed, another set again.
    g.set('d6', linkEntities('Once in Valencia with Comet.'), 'c4');
    g.remove('d6');
    g.set('d2', linkEntities('Comet ran his second race at the Lisbon track.', 'Ana'), 'c1');
    return g;
  }
  const answers = (g: EntityGraph) => ({
    top: g.top(20),
    comet: g.entity('comet'),
    porto: g.entitiesOf('d3'),
    walk: g.walk(['comet', 'porto'], 10),
    neighbours: g.neighbours('ana'),
    p90: g.p90(),
    documents: g.documentsOf('lisbon'),
    count: [g.entityCount, g.documentCount],
  });

  it('restores every answer the graph gives, in the same order', () => {
    const g = lived();
    const again = new EntityGraph();
    again.restore(JSON.parse(JSON.stringify(g.snapshot())));
    expect(answers(again)).toEqual(answers(g));
    expect(again.snapshot()).toEqual(g.snapshot());
  });

  it('keeps only the documents asked for, and only the entities they name', () => {
    const g = lived();
    const chunks = g.snapshot((id) => id.startsWith('d'));
    expect(chunks.docs.map(([id]) => id)).toEqual(['d1', 'd3', 'd4', 'd5', 'd2']);
    expect(chunks.entities.map(([key]) => key)).not.toContain('madrid');
    const again = new EntityGraph();
    again.restore(chunks);
    // The note read back as a load does: the same graph as the whole one.
    again.set('n1', linkEntities('Madrid and Porto are on the list. Madrid first.'), 'c3');
    expect(answers(again)).toEqual(answers(g));
  });

  it('refuses a reference out of range and is left empty', () => {
    const g = lived();
    const damaged = g.snapshot();
    damaged.docs[1]![2] = [damaged.entities.length];
    const again = lived();
    expect(() => again.restore(damaged)).toThrow(/names entity \d+ of \d+/u);
    expect(again.documentCount).toBe(0);
    expect(again.top(5)).toEqual([]);
    // A malformed entry after good ones: nothing of the good ones is kept either.
    const malformed = g.snapshot() as unknown as { docs: unknown[] };
    malformed.docs[2] = null;
    expect(() => again.restore(malformed as never)).toThrow(TypeError);
    expect(again.documentCount).toBe(0);
  });
});

/**
 * The walk as it was written over maps (before it ran over typed arrays): the oracle for the
 * differential test below. It reads the graph only through the public API (`entitiesOf` gives a
 * document's linked entities in order, `documentsOf` an entity's documents).
 */
function mapWalk(
  g: EntityGraph,
  docKeys: Map<string, string[]>,
  seedKeys: string[],
  k: number,
  steps: number,
): { id: string; score: number }[] {
  const d = 0.85;
  const linked = (key: string) => g.entity(key) !== null;
  const seeds = seedKeys.filter(linked);
  if (seeds.length === 0) return [];
  const restart = new Map(seeds.map((s) => [s, 1 / seeds.length]));
  let entityRank = new Map(restart);
  const docRank = new Map<string, number>();
  for (let step = 0; step < steps; step++) {
    docRank.clear();
    for (const [key, rank] of entityRank) {
      const docs = g.documentsOf(key);
      const share = rank / docs.length;
      for (const doc of docs) docRank.set(doc, (docRank.get(doc) ?? 0) + share);
    }
    const next = new Map<string, number>();
    for (const [key, r] of restart) next.set(key, (1 - d) * r);
    for (const [doc, rank] of docRank) {
      const keys = (docKeys.get(doc) ?? []).filter(linked);
      for (const key of keys) next.set(key, (next.get(key) ?? 0) + (d * rank) / keys.length);
    }
    entityRank = next;
  }
  return [...docRank]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, k)
    .map(([id, score]) => ({ id, score }));
}

describe('the walk over typed arrays', () => {
  it('gives the scores the walk over maps gives, to the last bit, however the graph changes', () => {
    const key = fc.constantFrom('ana', 'ben', 'lisbon', 'comet', 'porto', 'vivaldi', 'kyoto', 'rust');
    const mention = fc.record({ key, kind: fc.constantFrom('person' as const, 'name' as const), opening: fc.boolean() });
    const doc = fc.record({
      id: fc.constantFrom(...Array.from({ length: 12 }, (_, i) => `d${i}`)),
      mentions: fc.array(mention, { maxLength: 5 }),
    });
    const change = fc.oneof(doc, fc.record({ remove: fc.constantFrom(...Array.from({ length: 12 }, (_, i) => `d${i}`)) }));
    fc.assert(
      fc.property(
        fc.array(change, { minLength: 1, maxLength: 30 }),
        fc.array(key, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 6 }),
        (changes, seeds, steps) => {
          const g = new EntityGraph();
          const docKeys = new Map<string, string[]>();
          changes.forEach((c, i) => {
            if ('remove' in c) {
              g.remove(c.remove);
              docKeys.delete(c.remove);
            } else {
              const mentions = c.mentions.map((m) => ({ key: m.key, name: m.key, kind: m.kind, ...(m.opening ? { opening: true } : {}) }));
              g.set(c.id, mentions);
              docKeys.delete(c.id);
              if (mentions.length > 0)
                docKeys.set(
                  c.id,
                  mentions.map((m) => m.key),
                );
            }
            // A walk between changes: the arrays must follow every change.
            if (i % 7 === 3) expect(g.walk(seeds, 20, { steps })).toEqual(mapWalk(g, docKeys, seeds, 20, steps));
          });
          expect(g.walk(seeds, 20, { steps })).toEqual(mapWalk(g, docKeys, seeds, 20, steps));
          // A k small against the documents reached takes the top-k selection instead of a sort.
          expect(g.walk(seeds, 1, { steps })).toEqual(mapWalk(g, docKeys, seeds, 1, steps));
          expect(g.walk(seeds, 2, { steps })).toEqual(mapWalk(g, docKeys, seeds, 2, steps));
        },
      ),
      { numRuns: 500 },
    );
  });
});
