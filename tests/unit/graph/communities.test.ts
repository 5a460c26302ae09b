import { describe, expect, it } from 'vitest';
import { entityCommunities } from '../../../src/lib/core/graph/communities';
import { EntityGraph } from '../../../src/lib/core/graph/entity-graph';
import { linkEntities } from '../../../src/lib/core/graph/entity-linker';

/** Two subjects that never meet: a trip (Lisbon, Alfama, Sintra, Cascais) and a controller (Rachio, Hunter, Zigbee). */
function twoSubjects(): EntityGraph {
  const g = new EntityGraph();
  const trip = [
    'We will stay in Alfama near Lisbon, then skip Sintra.',
    'From Lisbon the train to Cascais takes forty minutes; Alfama is hilly.',
    'Sintra or Cascais on day three? Lisbon first.',
    'The hostel in Alfama is five minutes from Lisbon cathedral, and Cascais is close.',
  ];
  const garden = [
    'The Rachio controller talks to the Hunter valves over Zigbee.',
    'Zigbee range is short, so the Rachio hub sits by the Hunter box.',
    'Hunter valves need 24V; the Rachio supplies it, Zigbee does not care.',
  ];
  trip.forEach((t, i) => g.set(`trip-${i}`, linkEntities(t), 'conv-trip'));
  garden.forEach((t, i) => g.set(`garden-${i}`, linkEntities(t), 'conv-garden'));
  return g;
}

describe('entity communities (Louvain over co-occurrence)', () => {
  it('finds the two subjects as separate communities, with the documents that name them', () => {
    const communities = entityCommunities(twoSubjects());
    expect(communities).toHaveLength(2);
    const [first, second] = communities;
    const names = (c: typeof first) => c!.entities.map((e) => e.id).sort();
    expect(names(first)).toEqual(['alfama', 'cascais', 'lisbon', 'sintra']);
    expect(names(second)).toEqual(['hunter', 'rachio', 'zigbee']);
    expect(first!.docIds.every((d) => d.startsWith('trip-'))).toBe(true);
    expect(first!.conversationIds).toEqual(['conv-trip']);
    expect(second!.docIds.sort()).toEqual(['garden-0', 'garden-1', 'garden-2']);
    // Named for its most mentioned entity; documents naming more of it first.
    expect(first!.id).toBe('community:lisbon');
    expect(first!.entities[0]!.mentions).toBeGreaterThanOrEqual(first!.entities.at(-1)!.mentions);
  });

  it('is deterministic for the same graph and leaves out groups under minEntities', () => {
    expect(entityCommunities(twoSubjects())).toEqual(entityCommunities(twoSubjects()));
    expect(entityCommunities(twoSubjects(), { minEntities: 4 }).map((c) => c.id)).toEqual(['community:lisbon']);
  });

  it('leaves hubs out: a speaker named by every turn does not merge the subjects', () => {
    const g = new EntityGraph();
    const turns = [
      'We will stay in Alfama near Lisbon, then skip Sintra.',
      'From Lisbon the train to Sintra is slow; Alfama is hilly.',
      'The Rachio controller talks to the Hunter valves over Zigbee.',
      'Zigbee range is short, so the Rachio hub sits by the Hunter box.',
      'Alfama, Lisbon, Sintra: done.',
      'Hunter, Rachio, Zigbee: done.',
    ];
    turns.forEach((t, i) => g.set(`d${i}`, linkEntities(t, 'Caroline'), 'c1'));
    const communities = entityCommunities(g);
    expect(communities.map((c) => c.entities.map((e) => e.id).sort())).toEqual([
      ['alfama', 'lisbon', 'sintra'],
      ['hunter', 'rachio', 'zigbee'],
    ]);
  });

  it('an empty or edgeless graph has no communities', () => {
    expect(entityCommunities(new EntityGraph())).toEqual([]);
    const g = new EntityGraph();
    g.set('d1', linkEntities('I met Ana.', 'Ben'));
    expect(entityCommunities(g)).toEqual([]);
  });
});
