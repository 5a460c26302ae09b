import { isVerbless } from './classify';
import { HEDGE, TASK_TIME } from './cues';
import type { Segment } from './segments';
import { NEGATORS, stem, tokens } from './words';

/**
 * The features the category classifier reads for one segment: what the rules decided and why
 * (category, cue), where the segment sits (role, first user message, after the assistant's
 * suggestions, under "Decided:", in an option list, a piece of a longer sentence), its form
 * (verbless, negated, numbers, money, a time, length), and its words (first word, first two,
 * last word, stemmed words), each tied to the speaker's role.
 */
const bucket = (n: number): string => (n <= 3 ? 'xs' : n <= 7 ? 's' : n <= 11 ? 'm' : 'l');

export function segmentFeatures(segment: Segment): string[] {
  const { role, text } = segment;
  const words = tokens(text);
  const cue = segment.cue.split(':')[0] ?? segment.cue;
  const features = new Set<string>([
    `role=${role}`,
    `rule=${segment.category}`,
    `cue=${cue}`,
    `role=${role}&rule=${segment.category}`,
    `len=${bucket(words.length)}`,
  ]);
  const flag = (name: string, on: boolean): void => {
    if (on) features.add(`${role}:${name}`);
  };
  flag('first-user-turn', segment.firstUserTurn);
  flag('decided', segment.decidedSentence);
  flag('option-list', segment.optionList);
  flag('piece', segment.piece);
  flag('after-suggestions', segment.offered > 0);
  flag(`offer-overlap=${Math.min(segment.offerOverlap, 2)}`, segment.offered > 0);
  flag('verbless', isVerbless(text));
  flag('question', /\?\s*$/u.test(text));
  flag(
    'negated',
    words.some((w) => NEGATORS.has(w)),
  );
  flag('number', /\d/u.test(text));
  flag('money', /[€$£¥]\s?\d|\d\s?(?:euros?|dollars?|pounds?)\b/iu.test(text));
  flag('time', TASK_TIME.test(text));
  flag('hedge', HEDGE.test(text));
  flag('first-person', /^(?:i|we|i'm|we're|i'll|we'll|i've|we've|i'd|we'd|let's)\b/iu.test(text));
  const first = words[0] ?? '';
  features.add(`${role}:w0=${first}`);
  if (words[1]) features.add(`${role}:w01=${first} ${words[1]}`);
  features.add(`${role}:wN=${words.at(-1) ?? ''}`);
  for (const w of words) features.add(`${role}:u=${stem(w)}`);
  return [...features];
}
