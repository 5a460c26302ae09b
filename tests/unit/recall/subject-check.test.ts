import { describe, expect, it } from 'vitest';
import { namesAsSubject, statementSubjects } from '../../../src/lib/core/recall/subject-check';
import { seededRng } from '../../factories/rng';

// The reading before names were looked up through a cached expression behind a lowered-text check:
// a new expression for every call, every match read. The product's must answer the same everywhere.
const INTERJECTION =
  /(?:^|[.!?,;:]\s*|\b(?:hey|hi|hello|thanks|thank you|wow|oh|ooh|yeah|yes|yay|congrats|congratulations|sorry|aw+|ah|great|good|nice|cool|bye|dear|welcome|awesome|omg|haha|lol|hmm|so|well)[,!]?\s+)$/iu;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
function referenceNamesAsSubject(text: string, person: string): boolean {
  for (const m of text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${escape(person)}(?![\\p{L}\\p{N}])`, 'giu'))) {
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 2);
    if (!(INTERJECTION.test(before) && /^(?:\s*[,!?.]|\s*$)/u.test(after))) return true;
  }
  return false;
}

const PERSONS = ['John', 'Jon Smith', 'Jess', 'Kim', 'José', 'Zoë', 'Ilse', 'Ståle', 'A.J.', 'Mr. Kent'];
const PIECES = [
  'John',
  'john',
  'JOHN',
  'Johnson',
  'Jon Smith',
  'jon  smith',
  'Jon Smithers',
  'Jeſs',
  'JESS',
  'Jess',
  'Kim',
  'KIM',
  '\u212Aim',
  'José',
  'JOSÉ',
  'Jose',
  'Zoë',
  'ZOË',
  'İlse',
  'ILSE',
  'ilse',
  'Ståle',
  'STÅLE',
  'A.J.',
  'a.j.',
  'Mr. Kent',
  'Thanks, ',
  'Hey ',
  'thank you ',
  'so ',
  '!',
  '?',
  '.',
  ', ',
  ' ',
  ' ',
  ' ',
  'and',
  'went hiking',
  '😀',
  '\n',
  'é',
  '_',
];

describe('namesAsSubject', () => {
  it('answers as a fresh whole-word expression does, on generated texts with odd casings and foldings', () => {
    const rng = seededRng(21);
    let named = 0;
    for (let n = 0; n < 4000; n++) {
      const parts = Array.from({ length: 1 + Math.floor(rng() * 9) }, () => PIECES[Math.floor(rng() * PIECES.length)]!);
      const text = parts.join(rng() < 0.5 ? ' ' : '');
      for (const person of PERSONS) {
        const want = referenceNamesAsSubject(text, person);
        if (want) named++;
        expect([text, person, namesAsSubject(text, person)]).toEqual([text, person, want]);
        expect(namesAsSubject(text, person, text.toLowerCase())).toBe(want);
      }
    }
    // The generator reaches both answers often, the folded spellings included.
    expect(named).toBeGreaterThan(2000);
    expect(namesAsSubject('Jeſs went hiking', 'Jess')).toBe(true);
    expect(namesAsSubject('\u212Aim went hiking', 'Kim')).toBe(true);
    expect(namesAsSubject('Thanks, John!', 'John')).toBe(false);
    expect(namesAsSubject('Johnson went hiking', 'John')).toBe(false);
  });

  it('reads a statement about the persons it names, its speaker in the first person, its listener in the second', () => {
    expect(statementSubjects('Caroline went hiking with me', 'Melanie', 'Caroline', ['Caroline', 'Melanie'])).toEqual([
      'Caroline',
      'Melanie',
    ]);
    expect(statementSubjects('Your store looks great', 'Melanie', 'Caroline', ['Caroline', 'Melanie'])).toEqual(['Caroline']);
    expect(statementSubjects('Thanks, Caroline!', 'Melanie', 'Caroline', ['Caroline', 'Melanie'])).toEqual(['Melanie']);
  });
});
