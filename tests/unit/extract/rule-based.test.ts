import { describe, expect, it } from 'vitest';
import { extractConversation } from '../../../src/lib/core/extract/driver';
import { ruleBasedUnits } from '../../../src/lib/core/extract/rule-based';
import { proseSentences } from '../../../src/lib/core/text/sentences';
import type { ExtractionMessage } from '../../../src/lib/core/extract/units';
import { buildWindows } from '../../../src/lib/core/extract/windows';
import { MAPLE } from './conversation';

const say = (role: 'user' | 'assistant', text: string, id = `${role}-1`): ExtractionMessage => ({ id, role, text, createdAt: null });
const unitsOf = async (...messages: ExtractionMessage[]) => (await extractConversation(messages)).units;

describe('sentence splitting', () => {
  it('splits sentences and list items, drops code blocks and markdown, keeps abbreviations whole', () => {
    const text = '# Plan\n- Use **Dexie** for storage.\n- Ship it e.g. next week. Mr. Smith agreed!\n```ts\nconst x = 1;\n```\nDone.';
    expect(proseSentences(text)).toEqual(['Plan', 'Use Dexie for storage.', 'Ship it e.g. next week.', 'Mr. Smith agreed!', 'Done.']);
  });
});

describe('rule-based extractor', () => {
  it('classifies by cue phrases: question, decision, constraint, action, hedge, fact', async () => {
    const units = await unitsOf(
      say('user', 'When should I prune the maple?', 'q'),
      say('user', "I've decided to use IndexedDB for storage.", 'd'),
      say('user', 'The export must stay under 50 MB.', 'c'),
      say('user', 'I need to write the migration tests tomorrow.', 'a'),
      say('user', 'Maybe a graph view would help later.', 'h'),
      say('user', 'The vault holds about ten thousand notes.', 'f'),
    );
    const byId = Object.fromEntries(units.map((u) => [u.sourceMessageIds[0], u.category]));
    expect(byId).toEqual({
      q: 'Open Questions',
      d: 'Decisions',
      c: 'Constraints',
      a: 'Action Items',
      h: 'Provisional/Exploratory',
      f: 'Facts',
    });
  });

  it('credits decisions only to user turns: the same words from the assistant are not a decision', async () => {
    const units = await unitsOf(say('assistant', "Let's go with IndexedDB for storage."));
    expect(units.some((u) => u.category === 'Decisions')).toBe(false);
    expect(units).toHaveLength(1);
  });

  it('files assistant suggestions as ideas and skips its small talk', async () => {
    const units = await unitsOf(
      say('assistant', 'Great question! You could add a layer of mulch around the maple. Let me know if this helps.'),
    );
    expect(units.map((u) => [u.category, u.text])).toEqual([['Ideas', 'You could add a layer of mulch around the maple.']]);
  });

  it('drops pleasantries with no unit of meaning', async () => {
    expect(await unitsOf(say('user', 'Hey Mel! Good to see you! How have you been?'))).toEqual([]);
  });

  it('splits compound sentences into single claims and trims filler', async () => {
    const units = await unitsOf(say('user', 'Well, the maple is ten years old, and it has never been pruned properly.'));
    expect(units.map((u) => u.text)).toEqual(['The maple is ten years old.', 'It has never been pruned properly.']);
  });

  it('cites exactly the message each unit came from', () => {
    const [window] = buildWindows(MAPLE);
    const raws = ruleBasedUnits(window!);
    for (const raw of raws) expect((raw.sourceMessageIds as string[]).length).toBe(1);
    expect(new Set(raws.flatMap((r) => r.sourceMessageIds as string[]))).toEqual(new Set(MAPLE.map((m) => m.id)));
  });

  it('yields units that all pass the validator limits on the maple conversation', async () => {
    const run = await extractConversation(MAPLE);
    expect(run.extractors).toEqual(['rule-based']);
    expect(run.units.length).toBeGreaterThanOrEqual(7);
    for (const unit of run.units) expect(unit.text.split(/\s+/u).length).toBeLessThanOrEqual(15);
    expect(run.units.find((u) => u.category === 'Decisions')?.sourceMessageIds).toEqual(['msg-u2']);
  });
});
