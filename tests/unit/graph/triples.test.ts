import { describe, expect, it } from 'vitest';
import { tripleLine } from '../../../src/lib/core/graph/triple';
import { extractTriples } from '../../../src/lib/core/graph/triples';

const one = (text: string, speaker: string | null = null) => {
  const triples = extractTriples(text, speaker);
  expect(triples).toHaveLength(1);
  return triples[0]!;
};

describe('extractTriples', () => {
  it('resolves a first-person subject to the speaker of a named transcript', () => {
    const t = one('I went to a LGBTQ support group yesterday and it was so powerful.', 'Caroline');
    expect(t).toMatchObject({
      subject: 'caroline',
      subjectText: 'Caroline',
      relation: 'went',
      object: 'to a LGBTQ support group yesterday',
    });
    expect(t.entities).toEqual(['caroline', 'lgbtq']);
    // Terms: the relation and object stemmed, an irregular verb at its base ("went" -> "go").
    expect(t.terms).toEqual(['go', 'lgbtq', 'support', 'group', 'yesterdai']);
    expect(tripleLine(t)).toBe('Caroline · went · to a LGBTQ support group yesterday');
  });

  it('writes the unnamed person of a chat export as "You", with no subject entity', () => {
    const t = one('We decided to use Postgres for the irrigation schedules, since it handles time series.');
    expect(t).toMatchObject({
      subject: null,
      subjectText: 'You',
      relation: 'decided to use',
      object: 'Postgres for the irrigation schedules',
    });
    expect(t.entities).toEqual(['postgres']);
  });

  it('takes a named subject inside a possessive phrase, keeping the phrase as written', () => {
    const t = one('My cat Luna is allergic to chicken, so I switched her to a salmon diet.');
    expect(t).toMatchObject({ subject: 'luna', subjectText: 'My cat Luna', relation: 'is', object: 'allergic to chicken' });
  });

  it('names the speaker as owner of "my ..." when nothing in the phrase is a name', () => {
    expect(one('Our stories can be so inspiring.', 'Melanie')).toMatchObject({ subject: 'melanie', subjectText: "Melanie's stories" });
  });

  it('opens the relation with a contracted auxiliary and marks a negation', () => {
    const t = one("I'm not going to use MongoDB.");
    expect(t).toMatchObject({ relation: 'am not going to use', object: 'MongoDB', negated: true });
    expect(one('I went home early.', 'Jon').negated).toBe(false);
  });

  it('reads "Let\'s ..." as the speaker\'s choice', () => {
    expect(one("Let's go with SQLite for the prototype.", 'Ana')).toMatchObject({
      subject: 'ana',
      relation: "let's go",
      object: 'with SQLite for the prototype',
    });
  });

  it('keeps a third person named by the text as the subject', () => {
    expect(one('Melanie painted a sunset over the lake last week.', 'Caroline')).toMatchObject({
      subject: 'melanie',
      relation: 'painted',
      object: 'a sunset over the lake last week',
    });
  });

  it('keeps a number with a thousands comma whole in the object', () => {
    expect(one('The roofer quoted $4,000 for the gutters on Maple Street.')).toMatchObject({
      subject: null,
      subjectText: 'The roofer',
      object: '$4,000 for the gutters on Maple Street',
      entities: ['maple street'],
    });
  });

  it('gives nothing for a sentence that names no entity, unless a named speaker said it', () => {
    expect(extractTriples('The roofer quoted a price for the new gutters.')).toEqual([]);
    expect(extractTriples('I replaced the gutters last week.')).toEqual([]);
    expect(one('I replaced the gutters last week.', 'Jon')).toMatchObject({ subject: 'jon', entities: ['jon'] });
  });

  it('gives nothing for questions, unresolved pronouns, photo captions and code', () => {
    expect(extractTriples('What do flowers mean to you?', 'Caroline')).toEqual([]);
    expect(extractTriples('She loves hiking in the Rockies!', 'Mel')).toEqual([]);
    expect(extractTriples('[shares a photo: a photo of a group of people sitting on the ground].', 'Caroline')).toEqual([]);
    expect(extractTriples('```\nI went to Lisbon.\n```')).toEqual([]);
  });

  it('gives no subject to an opening adverb, a plural or an activity opening the sentence, or an address', () => {
    expect(extractTriples('Recently, I had a setback at work.', 'Melanie')).toEqual([]);
    expect(one('Pets are awesome company for Luna.').subject).toBeNull();
    expect(one('Transitioning was not easy for Caroline.').subject).toBeNull();
    expect(extractTriples('Caroline, those lessons are great.', 'Melanie')).toEqual([]);
  });

  it('caps the object at twelve words', () => {
    const t = one('I bought one two three four five six seven eight nine ten eleven twelve thirteen fourteen apples.', 'Jon');
    expect(t.object.split(' ')).toHaveLength(12);
  });
});
