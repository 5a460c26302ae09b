/** Typing linked names by compromise's tagger (core/graph/entity-types.ts). */
import { describe, expect, it } from 'vitest';
import { linkEntities } from '../../../src/lib/core/graph/entity-linker';
import { typeMentions } from '../../../src/lib/core/graph/entity-types';

const typed = (text: string, speaker: string | null = null) =>
  Object.fromEntries(typeMentions(text, linkEntities(text, speaker)).entries());

describe('entity types', () => {
  it('tells a place, a person and a month apart in one sentence', () => {
    expect(typed('My sister Maria and I are planning a week in Lisbon in June.')).toMatchObject({
      maria: 'person',
      lisbon: 'place',
      june: 'date',
    });
  });

  it("keeps the linker's speakers as people and quoted titles as titles", () => {
    const types = typed('I finally read "The Four Seasons" on the train to Paris.', 'Caroline');
    expect(types.caroline).toBe('person');
    expect(types['the four seasons']).toBe('title');
  });

  it('leaves a product or project it has no class for as a name, never drops it', () => {
    const types = typed('We moved the blog from WordPress to Ghost last spring.');
    expect(types.wordpress).toBe('name');
  });

  it('reads a capitalized verb as no name', () => {
    const types = typeMentions('Good order. Ask the roofer for a written estimate.', [{ key: 'ask', name: 'Ask', kind: 'name' }]);
    expect(types.get('ask')).toBeNull();
  });
});
